/* bot.engine._core: the fast core's board as a Python type, for perft and for the tests that
 * prove it plays exactly as bot/engine/board.py. bot/engine/core.py is its Python face. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "board.h"
#include "spec.h"

#ifndef TAFL_SOURCE_DIGEST
#define TAFL_SOURCE_DIGEST "unknown"
#endif

/* ------------------------------------------------------------------ Spec */

typedef struct {
    PyObject_HEAD
    Spec spec;
} SpecObject;

static int Spec_init(SpecObject *self, PyObject *args, PyObject *kwargs) {
    PyObject *data;
    static char *keywords[] = {"data", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!", keywords, &PyDict_Type, &data)) return -1;
    return spec_load(&self->spec, data);
}

static void Spec_dealloc(SpecObject *self) {
    spec_free(&self->spec);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Spec_get_size(SpecObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->spec.n);
}

static PyGetSetDef Spec_getset[] = {
    {"size", (getter)Spec_get_size, NULL, "The board's size.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SpecType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bot.engine._core.Spec",
    .tp_doc = "A variant's compiled tables (bot.engine.core.board_spec).",
    .tp_basicsize = sizeof(SpecObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Spec_init,
    .tp_dealloc = (destructor)Spec_dealloc,
    .tp_getset = Spec_getset,
};

/* ------------------------------------------------------------------ Board */

typedef struct {
    PyObject_HEAD
    PyObject *spec_object;
    Board board;
} BoardObject;

static int Board_init(BoardObject *self, PyObject *args, PyObject *kwargs) {
    PyObject *spec;
    Py_buffer cells;
    int turn;
    static char *keywords[] = {"spec", "cells", "turn", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!y*i", keywords, &SpecType, &spec, &cells,
                                     &turn))
        return -1;
    const Spec *s = &((SpecObject *)spec)->spec;
    int ok = cells.len == s->area && (turn == 0 || turn == 1);
    if (ok) {
        const uint8_t *bytes = cells.buf;
        for (int sq = 0; sq < s->area; sq++) ok &= bytes[sq] <= KING;
    }
    if (!ok) {
        PyBuffer_Release(&cells);
        PyErr_SetString(PyExc_ValueError, "cells: one piece code (0..3) per square; turn 0 or 1");
        return -1;
    }
    Py_INCREF(spec);
    Py_XSETREF(self->spec_object, spec);
    board_init(&self->board, s, cells.buf, turn);
    PyBuffer_Release(&cells);
    return 0;
}

static void Board_dealloc(BoardObject *self) {
    Py_XDECREF(self->spec_object);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *int_list(const int32_t *values, int count) {
    PyObject *list = PyList_New(count);
    if (!list) return NULL;
    for (int k = 0; k < count; k++) {
        PyObject *value = PyLong_FromLong(values[k]);
        if (!value) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, value);
    }
    return list;
}

static int ready(BoardObject *self) {
    if (!self->spec_object) {
        PyErr_SetString(PyExc_RuntimeError, "the board was not initialised");
        return 0;
    }
    return 1;
}

static PyObject *Board_moves(BoardObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    int32_t moves[MAX_MOVES];
    return int_list(moves, board_moves(&self->board, moves));
}

static PyObject *Board_count_moves(BoardObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    return PyLong_FromLong(board_count_moves(&self->board));
}

static PyObject *Board_has_moves(BoardObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    return PyBool_FromLong(board_has_moves(&self->board));
}

static PyObject *Board_king_routes(BoardObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    int32_t routes[4 * MAX_N];
    return int_list(routes, board_king_routes(&self->board, routes));
}

static PyObject *Board_king_capturing_moves(BoardObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    if (self->board.sp + 1 >= MAX_STACK) {
        PyErr_SetString(PyExc_OverflowError, "the board's move stack is full");
        return NULL;
    }
    int32_t moves[4 * 4 * MAX_N];
    return int_list(moves, board_king_capturing_moves(&self->board, moves));
}

static PyObject *Board_exit_fort(BoardObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    uint8_t fort[MAX_SQ];
    int32_t squares[MAX_SQ];
    int count = 0;
    if (self->board.spec->family == FAMILY_COPENHAGEN && board_exit_fort(&self->board, fort))
        for (int sq = 0; sq < self->board.spec->area; sq++)
            if (fort[sq]) squares[count++] = sq;
    return int_list(squares, count);
}

static int valid_move(BoardObject *self, long move) {
    int area = self->board.spec->area;
    long origin = move >> MOVE_SHIFT, target = move & TARGET_MASK;
    if (move < 0 || origin >= area || target >= area || origin == target) {
        PyErr_Format(PyExc_ValueError, "%ld is not a move on this board", move);
        return 0;
    }
    return 1;
}

static PyObject *Board_is_legal(BoardObject *self, PyObject *arg) {
    if (!ready(self)) return NULL;
    long move = PyLong_AsLong(arg);
    if (move == -1 && PyErr_Occurred()) return NULL;
    if (!valid_move(self, move)) {
        PyErr_Clear();
        Py_RETURN_FALSE;
    }
    return PyBool_FromLong(board_is_legal(&self->board, (int32_t)move));
}

static PyObject *Board_make(BoardObject *self, PyObject *arg) {
    if (!ready(self)) return NULL;
    long move = PyLong_AsLong(arg);
    if (move == -1 && PyErr_Occurred()) return NULL;
    if (!valid_move(self, move)) return NULL;
    if (self->board.sp + 2 >= MAX_STACK) {
        PyErr_SetString(PyExc_OverflowError, "the board's move stack is full");
        return NULL;
    }
    if (self->board.cells[move >> MOVE_SHIFT] == EMPTY) {
        PyErr_Format(PyExc_ValueError, "move %ld starts on an empty square", move);
        return NULL;
    }
    return PyLong_FromLong(board_make(&self->board, (int32_t)move));
}

static PyObject *Board_unmake(BoardObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    if (self->board.sp == 0) {
        PyErr_SetString(PyExc_IndexError, "no move to take back");
        return NULL;
    }
    board_unmake(&self->board);
    Py_RETURN_NONE;
}

static PyObject *Board_last_captures(BoardObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    int32_t squares[MAX_CAPTURES];
    int count = 0;
    if (self->board.sp) {
        const Frame *frame = &self->board.stack[self->board.sp - 1];
        for (; count < frame->ncap; count++) squares[count] = frame->caps[count];
    }
    return int_list(squares, count);
}

static PyObject *Board_captures_by(BoardObject *self, PyObject *args) {
    if (!ready(self)) return NULL;
    int piece, target;
    if (!PyArg_ParseTuple(args, "ii", &piece, &target)) return NULL;
    if (piece < ATTACKER || piece > KING || target < 0 || target >= self->board.spec->area) {
        PyErr_Format(PyExc_ValueError, "no piece %d or square %d on this board", piece, target);
        return NULL;
    }
    int16_t squares[MAX_CAPTURES];
    int32_t found[MAX_CAPTURES];
    int count = board_captures_by(&self->board, piece, target, squares);
    for (int k = 0; k < count; k++) found[k] = squares[k];
    return int_list(found, count);
}

static PyObject *Board_pass_turn(BoardObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    board_pass_turn(&self->board);
    Py_RETURN_NONE;
}

static PyObject *Board_winning_moves(BoardObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    if (self->board.sp + 2 >= MAX_STACK) {
        PyErr_SetString(PyExc_OverflowError, "the board's move stack is full");
        return NULL;
    }
    int32_t moves[MAX_MOVES], statuses[MAX_MOVES];
    int count = board_winning_moves(&self->board, moves, statuses);
    PyObject *list = PyList_New(count);
    if (!list) return NULL;
    for (int k = 0; k < count; k++) {
        PyObject *pair = Py_BuildValue("(ii)", (int)moves[k], (int)statuses[k]);
        if (!pair) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, pair);
    }
    return list;
}

static PyObject *Board_perft(BoardObject *self, PyObject *arg) {
    if (!ready(self)) return NULL;
    long depth = PyLong_AsLong(arg);
    if (depth == -1 && PyErr_Occurred()) return NULL;
    if (depth > MAX_STACK - 8) {
        PyErr_SetString(PyExc_ValueError, "perft depth too large");
        return NULL;
    }
    int64_t leaves;
    Py_BEGIN_ALLOW_THREADS
    leaves = board_perft(&self->board, (int)depth);
    Py_END_ALLOW_THREADS
    return PyLong_FromLongLong(leaves);
}

static PyObject *Board_perft_captures(BoardObject *self, PyObject *arg) {
    if (!ready(self)) return NULL;
    long depth = PyLong_AsLong(arg);
    if (depth == -1 && PyErr_Occurred()) return NULL;
    if (depth > MAX_STACK - 8) {
        PyErr_SetString(PyExc_ValueError, "perft depth too large");
        return NULL;
    }
    int64_t leaves = 0, captures = 0;
    Py_BEGIN_ALLOW_THREADS
    board_perft_captures(&self->board, (int)depth, &leaves, &captures);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(LL)", (long long)leaves, (long long)captures);
}

static PyObject *Board_get_hash(BoardObject *self, void *closure) {
    (void)closure;
    return PyLong_FromUnsignedLongLong(self->board.hash);
}
static PyObject *Board_get_king(BoardObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->board.king);
}
static PyObject *Board_get_turn(BoardObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->board.turn);
}
static PyObject *Board_get_status(BoardObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->board.status);
}
static PyObject *Board_get_ply(BoardObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->board.sp);
}
static PyObject *Board_get_cells(BoardObject *self, void *closure) {
    (void)closure;
    int area = self->spec_object ? self->board.spec->area : 0;
    return PyBytes_FromStringAndSize((const char *)self->board.cells, area);
}

static PyMethodDef Board_methods[] = {
    {"moves", (PyCFunction)Board_moves, METH_NOARGS, "Every legal move, in Board.moves' order."},
    {"count_moves", (PyCFunction)Board_count_moves, METH_NOARGS, "How many legal moves."},
    {"has_moves", (PyCFunction)Board_has_moves, METH_NOARGS, "Whether there is a legal move."},
    {"king_routes", (PyCFunction)Board_king_routes, METH_NOARGS, "The king's open routes."},
    {"king_capturing_moves", (PyCFunction)Board_king_capturing_moves, METH_NOARGS,
     "The attackers' moves that capture the king now."},
    {"exit_fort", (PyCFunction)Board_exit_fort, METH_NOARGS,
     "The squares of the king's exit fort when it holds (Copenhagen), else []."},
    {"is_legal", (PyCFunction)Board_is_legal, METH_O, "Whether a move is legal."},
    {"make", (PyCFunction)Board_make, METH_O, "Play a legal move; returns its status code."},
    {"unmake", (PyCFunction)Board_unmake, METH_NOARGS, "Take back the last move."},
    {"last_captures", (PyCFunction)Board_last_captures, METH_NOARGS,
     "The squares the last move captured on."},
    {"captures_by", (PyCFunction)Board_captures_by, METH_VARARGS,
     "The custodial captures of a piece arriving on a square (Board.captures_by)."},
    {"pass_turn", (PyCFunction)Board_pass_turn, METH_NOARGS,
     "Give the move to the other side, the position unchanged (Board.pass_turn)."},
    {"winning_moves", (PyCFunction)Board_winning_moves, METH_NOARGS,
     "(move, status) of every move that wins at once, status 0 when it leaves the other "
     "side no legal move; each move played."},
    {"perft", (PyCFunction)Board_perft, METH_O, "Leaf count to a depth."},
    {"perft_captures", (PyCFunction)Board_perft_captures, METH_O,
     "Leaf count and capturing leaf moves to a depth."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Board_getset[] = {
    {"hash", (getter)Board_get_hash, NULL, "The Zobrist hash (as Board.hash).", NULL},
    {"king", (getter)Board_get_king, NULL, "The king's square (-1: none).", NULL},
    {"turn", (getter)Board_get_turn, NULL, "The side to move (0 attackers, 1 defenders).", NULL},
    {"status", (getter)Board_get_status, NULL, "How the last move ended the game (0: not).", NULL},
    {"ply", (getter)Board_get_ply, NULL, "Moves made and not taken back.", NULL},
    {"cells", (getter)Board_get_cells, NULL, "The piece code of every square.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bot.engine._core.Board",
    .tp_doc = "The fast core's make/unmake board (bot.engine.core.FastBoard).",
    .tp_basicsize = sizeof(BoardObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Board_init,
    .tp_dealloc = (destructor)Board_dealloc,
    .tp_methods = Board_methods,
    .tp_getset = Board_getset,
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "bot.engine._core",
    .m_doc = "The fast core's rules engine (C); bot.engine.core is its Python face.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&SpecType) < 0 || PyType_Ready(&BoardType) < 0) return NULL;
    PyObject *module = PyModule_Create(&core_module);
    if (!module) return NULL;
    Py_INCREF(&SpecType);
    Py_INCREF(&BoardType);
    if (PyModule_AddObject(module, "Spec", (PyObject *)&SpecType) < 0 ||
        PyModule_AddObject(module, "Board", (PyObject *)&BoardType) < 0 ||
        PyModule_AddStringConstant(module, "SOURCE_DIGEST", TAFL_SOURCE_DIGEST) < 0 ||
        PyModule_AddIntConstant(module, "MAX_STACK", MAX_STACK) < 0 ||
        PyModule_AddIntConstant(module, "MAX_SIZE", MAX_N) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}

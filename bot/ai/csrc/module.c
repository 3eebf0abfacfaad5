/* bot.ai._core: the fast core's search as a Python type, driven by bot/ai/search.py's
 * Searcher (bot/ai/fast.py builds its tables). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "spec.h"

#ifndef TAFL_SOURCE_DIGEST
#define TAFL_SOURCE_DIGEST "unknown"
#endif

typedef struct {
    PyObject_HEAD
    Search *search;
} SearchObject;

/* ------------------------------------------------------------------ loading the tables */

static int sequence_ints(PyObject *seq, int *out, int limit, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    if (count > limit) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "fast search spec: %s too long", what);
        return -1;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[k] = (int)value;
    }
    Py_DECREF(fast);
    return (int)count;
}

static int load_rays(EscapeRays *r, PyObject *data, int area) {
    PyObject *rays = spec_item(data, "escape_rays");
    if (!rays) return -1;
    if (PySequence_Size(rays) != area) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "fast search spec: escape_rays");
        return -1;
    }
    for (int sq = 0; sq < area; sq++) {
        PyObject *list = PySequence_GetItem(rays, sq);
        if (!list) return -1;
        Py_ssize_t count = PySequence_Size(list);
        if (count < 0 || count > 4) {
            Py_DECREF(list);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "escape_rays: 4 at most");
            return -1;
        }
        r->count[sq] = (int)count;
        for (Py_ssize_t k = 0; k < count; k++) {
            PyObject *ray = PySequence_GetItem(list, k);
            PyObject *is_file = ray ? PySequence_GetItem(ray, 0) : NULL;
            PyObject *line = ray ? PySequence_GetItem(ray, 1) : NULL;
            PyObject *mask = ray ? PySequence_GetItem(ray, 2) : NULL;
            PyObject *squares = ray ? PySequence_GetItem(ray, 3) : NULL;
            int values[MAX_N];
            int length = squares ? sequence_ints(squares, values, MAX_N, "escape ray") : -1;
            if (length >= 0) {
                r->is_file[sq][k] = (uint8_t)PyLong_AsLong(is_file);
                r->line[sq][k] = (uint8_t)PyLong_AsLong(line);
                r->mask[sq][k] = (uint32_t)PyLong_AsUnsignedLong(mask);
                r->length[sq][k] = (uint8_t)length;
                for (int i = 0; i < length; i++) r->squares[sq][k][i] = (int16_t)values[i];
            }
            Py_XDECREF(is_file);
            Py_XDECREF(line);
            Py_XDECREF(mask);
            Py_XDECREF(squares);
            Py_XDECREF(ray);
            if (length < 0 || PyErr_Occurred()) {
                Py_DECREF(list);
                return -1;
            }
        }
        Py_DECREF(list);
    }
    return 0;
}

static int load_evaluation(Evaluation *w, PyObject *data, int area) {
    int error = 0;
    w->attacker = (int)spec_int(data, "attacker", &error);
    w->defender = (int)spec_int(data, "defender", &error);
    w->king_mobility = (int)spec_int(data, "king_mobility", &error);
    w->threat_square = (int)spec_int(data, "threat_square", &error);
    w->fork_square = (int)spec_int(data, "fork_square", &error);
    w->king_distance = (int)spec_int(data, "king_distance", &error);
    w->king_moves = (int)spec_int(data, "king_moves", &error);
    w->attacker_near_king = (int)spec_int(data, "attacker_near_king", &error);
    w->line_guard = (int)spec_int(data, "line_guard", &error);
    w->mobility = (int)spec_int(data, "mobility", &error);
    w->tempo = (int)spec_int(data, "tempo", &error);
    w->centre_strong = (int)spec_int(data, "centre_strong", &error);
    w->offset = (int)spec_int(data, "offset", &error);
    if (error) return -1;
    PyObject *item = spec_item(data, "king_closed");
    if (!item || sequence_ints(item, w->king_closed, 5, "king_closed") != 5) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "king_closed: five values");
        return -1;
    }
    item = spec_item(data, "distance");
    if (!item || sequence_ints(item, w->distance, MAX_SQ, "distance") != area) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "distance: one per square");
        return -1;
    }
    PyObject *guards = spec_item(data, "guard_squares");
    if (!guards) return -1;
    Py_ssize_t count = PySequence_Size(guards);
    if (count < 0 || count > MAX_GUARDS) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "guard_squares");
        return -1;
    }
    w->guard_count = (int)count;
    for (Py_ssize_t k = 0; k < count; k++) {
        int pair[2];
        PyObject *entry = PySequence_GetItem(guards, k);
        int got = entry ? sequence_ints(entry, pair, 2, "guard_squares") : -1;
        Py_XDECREF(entry);
        if (got != 2) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "guard_squares: pairs");
            return -1;
        }
        w->guard_square[k] = (int16_t)pair[0];
        w->guard_value[k] = pair[1];
    }
    PyObject *segments = spec_item(data, "corner_lines");
    if (!segments) return -1;
    count = PySequence_Size(segments);
    if (count < 0 || count > MAX_SEGMENTS) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "corner_lines");
        return -1;
    }
    w->segment_count = (int)count;
    for (Py_ssize_t k = 0; k < count; k++) {
        int values[MAX_N];
        PyObject *entry = PySequence_GetItem(segments, k);
        int got = entry ? sequence_ints(entry, values, MAX_N, "corner_lines") : -1;
        Py_XDECREF(entry);
        if (got < 0) return -1;
        w->segment_length[k] = got;
        for (int i = 0; i < got; i++) w->segment[k][i] = (int16_t)values[i];
    }
    return 0;
}

static void release(Search *s) {
    if (!s) return;
    spec_free(&s->spec);
    table_clear(&s->tt);
    free(s->seen.keys);
    free(s->history[0]);
    free(s->history[1]);
    free(s->journal);
    Py_XDECREF(s->check);
    free(s);
}

static int Search_init(SearchObject *self, PyObject *args, PyObject *kwargs) {
    PyObject *board_spec, *eval_spec;
    int noise, quiescence, reads_threats, reductions, repetition_winner, even_reductions;
    unsigned long long noise_key;
    const char *late_reductions;
    Py_ssize_t late_reductions_size;
    int pruning, settings[PRUNING_SETTINGS];
    static char *keywords[] = {"board_spec", "eval_spec", "noise", "noise_key", "quiescence",
                               "reads_threats", "reductions", "repetition_winner",
                               "even_reductions", "late_reductions", "pruning",
                               "pruning_settings", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O!iKpppipy#p(iiiiiiii)", keywords,
                                     &PyDict_Type,
                                     &board_spec, &PyDict_Type, &eval_spec, &noise, &noise_key,
                                     &quiescence, &reads_threats, &reductions,
                                     &repetition_winner, &even_reductions, &late_reductions,
                                     &late_reductions_size, &pruning, &settings[0], &settings[1],
                                     &settings[2], &settings[3], &settings[4], &settings[5],
                                     &settings[6], &settings[7]))
        return -1;
    if (late_reductions_size != REDUCTION_DEPTHS * REDUCTION_MOVES) {
        PyErr_SetString(PyExc_ValueError, "late_reductions: a table of the wrong size");
        return -1;
    }
    Search *s = calloc(1, sizeof(Search));
    if (!s) {
        PyErr_NoMemory();
        return -1;
    }
    if (spec_load(&s->spec, board_spec) || load_rays(&s->rays, eval_spec, s->spec.area) ||
        load_evaluation(&s->eval, eval_spec, s->spec.area)) {
        release(s);
        return -1;
    }
    size_t history = (size_t)s->spec.area * (size_t)s->spec.area;
    s->history[0] = calloc(history, sizeof(int64_t));
    s->history[1] = calloc(history, sizeof(int64_t));
    if (!s->history[0] || !s->history[1]) {
        release(s);
        PyErr_NoMemory();
        return -1;
    }
    s->noise = noise;
    s->noise_key = noise_key;
    s->quiescence = quiescence;
    s->reads_threats = reads_threats;
    s->reductions = reductions;
    s->even_reductions = even_reductions;
    memcpy(s->late_reductions, late_reductions, sizeof s->late_reductions);
    s->pruning = pruning;
    memcpy(s->pruning_settings, settings, sizeof settings);
    s->forts = s->spec.family == FAMILY_COPENHAGEN;
    search_prepare(s);
    s->repetition_winner = repetition_winner;
    uint8_t cells[MAX_SQ] = {0};
    board_init(&s->board, &s->spec, cells, 0);
    release(self->search);
    self->search = s;
    return 0;
}

static void Search_dealloc(SearchObject *self) {
    release(self->search);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int ready(SearchObject *self) {
    if (!self->search) {
        PyErr_SetString(PyExc_RuntimeError, "the search was not initialised");
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ methods */

/* What Searcher.search sets up before its iterations: the root position, the game's earlier
 * positions, the repetitions' scores, the stop check; the history table decays, the killers
 * are forgotten. */
static PyObject *Search_start(SearchObject *self, PyObject *args) {
    if (!ready(self)) return NULL;
    Search *s = self->search;
    Py_buffer cells;
    int turn, draw_attackers, draw_defenders;
    PyObject *seen, *check;
    if (!PyArg_ParseTuple(args, "y*iO(ii)O", &cells, &turn, &seen, &draw_attackers,
                          &draw_defenders, &check))
        return NULL;
    int ok = cells.len == s->spec.area && (turn == 0 || turn == 1) && PyCallable_Check(check);
    if (ok) {
        const uint8_t *bytes = cells.buf;
        for (int sq = 0; sq < s->spec.area; sq++) ok &= bytes[sq] <= KING;
    }
    if (!ok) {
        PyBuffer_Release(&cells);
        PyErr_SetString(PyExc_ValueError, "start(cells, turn, seen, draw_scores, check)");
        return NULL;
    }
    board_init(&s->board, &s->spec, cells.buf, turn);
    PyBuffer_Release(&cells);
    PyObject *fast = PySequence_Fast(seen, "seen: a sequence of hashes");
    if (!fast) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    uint64_t *keys = malloc(((size_t)count + 1) * sizeof(uint64_t));
    if (!keys) {
        Py_DECREF(fast);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        keys[k] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, k));
        if (PyErr_Occurred()) {
            free(keys);
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    int failed = keyset_fill(&s->seen, keys, (size_t)count);
    free(keys);
    if (failed) return PyErr_NoMemory();
    s->draw_scores[0] = draw_attackers;
    s->draw_scores[1] = draw_defenders;
    Py_INCREF(check);
    Py_XSETREF(s->check, check);
    size_t history = (size_t)s->spec.area * (size_t)s->spec.area;
    for (int side = 0; side < 2; side++) {
        for (size_t k = 0; k < history; k++) s->history[side][k] >>= 2;
        s->history_max[side] >>= 2; /* the largest value, quartered, is the largest quarter */
    }
    memset(s->killers, 0, sizeof(s->killers));
    memset(s->path_filter, 0, sizeof(s->path_filter));
    s->path_length = 0;
    s->nodes = 0;
    s->aborted = 0;
    s->has_partial = 0;
    Py_RETURN_NONE;
}

static int read_moves(PyObject *list, int32_t *out, const char *what) {
    PyObject *fast = PySequence_Fast(list, what);
    if (!fast) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    if (count > MAX_MOVES) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: too many moves", what);
        return -1;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        long move = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
        if (move == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[k] = (int32_t)move;
    }
    Py_DECREF(fast);
    return (int)count;
}

/* Searcher._root: (score, best move, {move: score}), or None when the check stopped it. */
static PyObject *Search_root(SearchObject *self, PyObject *args) {
    if (!ready(self)) return NULL;
    Search *s = self->search;
    int depth;
    PyObject *moves_list, *previous;
    if (!PyArg_ParseTuple(args, "iOO!", &depth, &moves_list, &PyDict_Type, &previous)) return NULL;
    if (!s->check) {
        PyErr_SetString(PyExc_RuntimeError, "root() before start()");
        return NULL;
    }
    int32_t moves[MAX_MOVES], previous_moves[MAX_MOVES], previous_scores[MAX_MOVES];
    int32_t scores[MAX_MOVES], ordered[MAX_MOVES];
    int count = read_moves(moves_list, moves, "moves");
    if (count < 0) return NULL;
    int area = s->spec.area;
    for (int k = 0; k < count; k++) {
        int origin = moves[k] >> MOVE_SHIFT, target = moves[k] & TARGET_MASK;
        if (moves[k] < 0 || origin >= area || target >= area || !board_is_legal(&s->board, moves[k])) {
            PyErr_Format(PyExc_ValueError, "%d is not a legal move of the root", moves[k]);
            return NULL;
        }
    }
    if (PyDict_Size(previous) > MAX_MOVES) {
        PyErr_SetString(PyExc_ValueError, "previous: too many moves");
        return NULL;
    }
    int previous_count = 0;
    Py_ssize_t position = 0;
    PyObject *key, *value;
    while (PyDict_Next(previous, &position, &key, &value)) {
        previous_moves[previous_count] = (int32_t)PyLong_AsLong(key);
        previous_scores[previous_count++] = (int32_t)PyLong_AsLong(value);
        if (PyErr_Occurred()) return NULL;
    }
    int32_t score = 0, best = 0;
    int scored = 0;
    int stopped = search_root(s, depth, moves, count, previous_moves, previous_scores,
                              previous_count, &score, &best, scores, ordered, &scored);
    if (s->aborted == 2) return NULL; /* the check raised: its exception goes on */
    if (stopped) Py_RETURN_NONE;
    PyObject *table = PyDict_New();
    if (!table) return NULL;
    for (int k = 0; k < scored; k++) {
        PyObject *move = PyLong_FromLong(ordered[k]);
        PyObject *points = PyLong_FromLong(scores[k]);
        int failed = !move || !points || PyDict_SetItem(table, move, points);
        Py_XDECREF(move);
        Py_XDECREF(points);
        if (failed) {
            Py_DECREF(table);
            return NULL;
        }
    }
    return Py_BuildValue("(iiN)", score, best, table);
}

static PyObject *Search_pv(SearchObject *self, PyObject *args) {
    if (!ready(self)) return NULL;
    int first, depth;
    if (!PyArg_ParseTuple(args, "ii", &first, &depth)) return NULL;
    Search *s = self->search;
    int area = s->spec.area;
    if (first < 0 || (first >> MOVE_SHIFT) >= area || (first & TARGET_MASK) >= area ||
        s->board.cells[first >> MOVE_SHIFT] == EMPTY) {
        PyErr_Format(PyExc_ValueError, "%d is not a move here", first);
        return NULL;
    }
    int32_t line[MAX_STACK];
    int length = search_pv(s, first, depth, line);
    PyObject *list = PyList_New(length);
    if (!list) return NULL;
    for (int k = 0; k < length; k++) {
        PyObject *move = PyLong_FromLong(line[k]);
        if (!move) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, move);
    }
    return list;
}

static PyObject *Search_tt_clear(SearchObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    table_clear(&self->search->tt);
    Py_RETURN_NONE;
}

static PyObject *Search_tt_len(SearchObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    return PyLong_FromSize_t(self->search->tt.count);
}

static PyObject *Search_tt_get(SearchObject *self, PyObject *arg) {
    if (!ready(self)) return NULL;
    unsigned long long key = PyLong_AsUnsignedLongLong(arg);
    if (PyErr_Occurred()) return NULL;
    Entry *e = table_find(&self->search->tt, key);
    if (!e) Py_RETURN_NONE;
    return Py_BuildValue("(iiii)", e->depth, e->flag, e->score, e->move);
}

static PyObject *Search_tt_keys(SearchObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    const Table *t = &self->search->tt;
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    for (size_t i = 0; i < t->capacity; i++) {
        if (!t->entries[i].used) continue;
        PyObject *key = PyLong_FromUnsignedLongLong(t->entries[i].key);
        if (!key || PyList_Append(list, key)) {
            Py_XDECREF(key);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(key);
    }
    return list;
}

static PyObject *Search_evaluate(SearchObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    return PyLong_FromLong(evaluate(self->search));
}

static PyObject *Search_get_nodes(SearchObject *self, void *closure) {
    (void)closure;
    if (!ready(self)) return NULL;
    return PyLong_FromLongLong(self->search->nodes);
}

static PyObject *Search_get_partial(SearchObject *self, void *closure) {
    (void)closure;
    if (!ready(self)) return NULL;
    Search *s = self->search;
    if (!s->has_partial) Py_RETURN_NONE;
    return Py_BuildValue("(ii)", s->partial_move, s->partial_score);
}

static PyMethodDef Search_methods[] = {
    {"start", (PyCFunction)Search_start, METH_VARARGS,
     "start(cells, turn, seen, draw_scores, check): set up a search."},
    {"root", (PyCFunction)Search_root, METH_VARARGS,
     "root(depth, moves, previous): one iteration; None when stopped."},
    {"pv", (PyCFunction)Search_pv, METH_VARARGS, "pv(first, depth): the principal variation."},
    {"tt_clear", (PyCFunction)Search_tt_clear, METH_NOARGS, "Empty the transposition table."},
    {"tt_len", (PyCFunction)Search_tt_len, METH_NOARGS, "Entries in the transposition table."},
    {"tt_get", (PyCFunction)Search_tt_get, METH_O, "(depth, flag, score, move) or None."},
    {"tt_keys", (PyCFunction)Search_tt_keys, METH_NOARGS, "The table's keys."},
    {"evaluate", (PyCFunction)Search_evaluate, METH_NOARGS, "The root position's evaluation."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "Nodes searched since start().", NULL},
    {"partial", (getter)Search_get_partial, NULL,
     "The running iteration's best root move and score so far, or None.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bot.ai._core.Search",
    .tp_doc = "The fast core's search (driven by bot.ai.search.Searcher).",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "bot.ai._core",
    .m_doc = "The fast core's search (C); bot.ai.fast is its Python face.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *module = PyModule_Create(&core_module);
    if (!module) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(module, "Search", (PyObject *)&SearchType) < 0 ||
        PyModule_AddStringConstant(module, "SOURCE_DIGEST", TAFL_SOURCE_DIGEST) < 0 ||
        PyModule_AddIntConstant(module, "MAX_SIZE", MAX_N) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}

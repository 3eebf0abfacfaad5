/* Reading a variant's compiled data into a Spec: the C side of bot/engine/core.py's
 * board_spec(). Every table comes from Python; only the line masks are derived here, from the
 * line codes, by Tables.fill_line's rule. */
#include "spec.h"

#include <stdlib.h>
#include <string.h>

PyObject *spec_item(PyObject *data, const char *key) {
    PyObject *item = PyDict_GetItemString(data, key);
    if (!item) PyErr_Format(PyExc_KeyError, "fast core spec: no %s", key);
    return item;
}

long spec_int(PyObject *data, const char *key, int *error) {
    PyObject *item = spec_item(data, key);
    if (!item) {
        *error = 1;
        return 0;
    }
    long value = PyLong_AsLong(item);
    if (value == -1 && PyErr_Occurred()) *error = 1;
    return value;
}

int spec_bytes(PyObject *data, const char *key, uint8_t *out, Py_ssize_t length) {
    PyObject *item = spec_item(data, key);
    if (!item) return -1;
    if (!PyBytes_Check(item) || PyBytes_GET_SIZE(item) != length) {
        PyErr_Format(PyExc_ValueError, "fast core spec: %s must be %zd bytes", key, length);
        return -1;
    }
    memcpy(out, PyBytes_AS_STRING(item), (size_t)length);
    return 0;
}

/* A sequence of small ints into ``out`` (at most ``limit``); returns the count or -1. */
static int int_sequence(PyObject *seq, int16_t *out, int limit, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    if (count > limit) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "fast core spec: %s too long", what);
        return -1;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[k] = (int16_t)value;
    }
    Py_DECREF(fast);
    return (int)count;
}

/* A list with one entry per square (or line): the entry's sequence of ``width`` ints each. */
static int per_square(PyObject *data, const char *key, int count, int width, int16_t *out,
                      uint8_t *lengths, int limit) {
    PyObject *item = spec_item(data, key);
    if (!item) return -1;
    PyObject *fast = PySequence_Fast(item, key);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "fast core spec: %s needs %d entries", key, count);
        return -1;
    }
    for (int k = 0; k < count; k++) {
        PyObject *entry = PySequence_Fast_GET_ITEM(fast, k);
        int16_t flat[4 * 2];
        int got;
        if (width == 1) {
            got = int_sequence(entry, out + k * limit, limit, key);
        } else {
            /* pairs: flatten */
            PyObject *pairs = PySequence_Fast(entry, key);
            if (!pairs) {
                Py_DECREF(fast);
                return -1;
            }
            got = (int)PySequence_Fast_GET_SIZE(pairs);
            if (got > limit) {
                Py_DECREF(pairs);
                Py_DECREF(fast);
                PyErr_Format(PyExc_ValueError, "fast core spec: %s too long", key);
                return -1;
            }
            for (int p = 0; p < got; p++) {
                if (int_sequence(PySequence_Fast_GET_ITEM(pairs, p), flat + 2 * p, 2, key) != 2) {
                    Py_DECREF(pairs);
                    Py_DECREF(fast);
                    if (!PyErr_Occurred())
                        PyErr_Format(PyExc_ValueError, "fast core spec: %s holds pairs", key);
                    return -1;
                }
                out[(k * limit + p) * 2] = flat[2 * p];
                out[(k * limit + p) * 2 + 1] = flat[2 * p + 1];
            }
            Py_DECREF(pairs);
        }
        if (got < 0) {
            Py_DECREF(fast);
            return -1;
        }
        lengths[k] = (uint8_t)got;
    }
    Py_DECREF(fast);
    return 0;
}

int spec_load(Spec *s, PyObject *data) {
    int error = 0;
    spec_free(s);
    memset(s, 0, sizeof(*s));
    if (!PyDict_Check(data)) {
        PyErr_SetString(PyExc_TypeError, "fast core spec: expected a dict");
        return -1;
    }
    s->n = (int)spec_int(data, "n", &error);
    if (error) return -1;
    if (s->n < 3 || s->n > MAX_N) {
        PyErr_Format(PyExc_ValueError, "fast core spec: board size %d", s->n);
        return -1;
    }
    int n = s->n, area = n * n;
    s->area = area;
    s->throne = (int)spec_int(data, "throne", &error);
    s->first_side = (int)spec_int(data, "first_side", &error);
    s->family = (int)spec_int(data, "family", &error);
    s->king_armed = (int)spec_int(data, "king_armed", &error);
    s->linnaean = (int)spec_int(data, "linnaean", &error);
    s->tuichi_wins = (int)spec_int(data, "tuichi_wins", &error);
    s->extra_captures = (int)spec_int(data, "extra_captures", &error);
    s->empty_throne_hostile_att = (int)spec_int(data, "empty_throne_hostile_att", &error);
    s->empty_throne_hostile_def = (int)spec_int(data, "empty_throne_hostile_def", &error);
    s->occupied_throne_hostile_def = (int)spec_int(data, "occupied_throne_hostile_def", &error);
    int passable = (int)spec_int(data, "throne_passable", &error);
    if (error) return -1;
    if (spec_bytes(data, "is_escape", s->is_escape, area) ||
        spec_bytes(data, "king_barred", s->king_barred, area) ||
        spec_bytes(data, "closes_ring", s->closes_ring, area) ||
        spec_bytes(data, "hostile_att", s->hostile_att, area) ||
        spec_bytes(data, "hostile_def", s->hostile_def, area) ||
        spec_bytes(data, "is_corner", s->is_corner, area) ||
        spec_bytes(data, "is_edge", s->is_edge, area))
        return -1;

    /* Zobrist keys: four lists (by piece) of one key per square, and the side key. */
    PyObject *zobrist = spec_item(data, "zobrist");
    if (!zobrist) return -1;
    for (int piece = 0; piece < 4; piece++) {
        PyObject *keys = PySequence_GetItem(zobrist, piece);
        if (!keys) return -1;
        for (int sq = 0; sq < area; sq++) {
            PyObject *key = PySequence_GetItem(keys, sq);
            if (!key) {
                Py_DECREF(keys);
                return -1;
            }
            s->zobrist[piece][sq] = PyLong_AsUnsignedLongLong(key);
            Py_DECREF(key);
        }
        Py_DECREF(keys);
        if (PyErr_Occurred()) return -1;
    }
    PyObject *side_key = spec_item(data, "zobrist_side");
    if (!side_key) return -1;
    s->zobrist_side = PyLong_AsUnsignedLongLong(side_key);
    if (PyErr_Occurred()) return -1;

    static int16_t flat[MAX_SQ * 4 * MAX_N];
    if (per_square(data, "neighbours", area, 1, &s->nb[0][0], s->nb_count, 4)) return -1;
    if (per_square(data, "capture_pairs", area, 2, flat, s->pair_count, 4)) return -1;
    for (int sq = 0; sq < area; sq++)
        for (int k = 0; k < s->pair_count[sq]; k++) {
            s->pair_victim[sq][k] = flat[(sq * 4 + k) * 2];
            s->pair_anvil[sq][k] = flat[(sq * 4 + k) * 2 + 1];
        }
    for (int sq = 0; sq < area; sq++) {
        int rank = sq / n, file = sq % n;
        s->throne_nb[sq] = (abs(rank - s->throne / n) + abs(file - s->throne % n)) == 1;
    }

    /* Rays: per square, up to four sequences of squares. */
    PyObject *rays = spec_item(data, "rays");
    if (!rays || PySequence_Size(rays) != area) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "fast core spec: rays");
        return -1;
    }
    for (int sq = 0; sq < area; sq++) {
        PyObject *list = PySequence_GetItem(rays, sq);
        if (!list) return -1;
        Py_ssize_t count = PySequence_Size(list);
        if (count < 0 || count > 4) {
            Py_DECREF(list);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "fast core spec: rays");
            return -1;
        }
        s->ray_count[sq] = (uint8_t)count;
        for (Py_ssize_t r = 0; r < count; r++) {
            PyObject *ray = PySequence_GetItem(list, r);
            int got = ray ? int_sequence(ray, s->ray[sq][r], MAX_N, "rays") : -1;
            Py_XDECREF(ray);
            if (got < 0) {
                Py_DECREF(list);
                return -1;
            }
            s->ray_len[sq][r] = (uint8_t)got;
        }
        Py_DECREF(list);
    }

    /* Lines and their codes; the masks of Tables.fill_line's rule for each origin code. */
    uint8_t lengths[MAX_LINES];
    if (per_square(data, "line_squares", 2 * n, 1, &s->line_sq[0][0], lengths, MAX_N)) return -1;
    static int16_t codes[MAX_LINES][MAX_N];
    if (per_square(data, "line_codes", 2 * n, 1, &codes[0][0], lengths, MAX_N)) return -1;
    for (int L = 0; L < 2 * n; L++) {
        for (int i = 0; i < n; i++) {
            if (codes[L][i] < 0 || codes[L][i] >= MAX_CODES) {
                PyErr_SetString(PyExc_ValueError, "fast core spec: too many camps");
                return -1;
            }
            s->line_code[L][i] = (uint8_t)codes[L][i];
        }
        for (int origin = 0; origin < MAX_CODES; origin++) {
            uint32_t block = 0, stop = 0;
            for (int j = 0; j < n; j++) {
                int code = codes[L][j];
                if (code == CODE_NORMAL)
                    stop |= 1u << j;
                else if (code == CODE_THRONE)
                    block |= passable ? 0 : 1u << j;
                else if (code == CODE_CORNER)
                    block |= 1u << j;
                else if (code == origin) /* a camp square of the camp the move starts in */
                    stop |= 1u << j;
                else
                    block |= 1u << j;
            }
            s->line_block[L][origin] = block;
            s->line_stop[L][origin] = stop;
        }
        s->line_king_block[L] = 0;
        for (int j = 0; j < n; j++)
            if (s->king_barred[s->line_sq[L][j]]) s->line_king_block[L] |= 1u << j;
    }

    /* Copenhagen's edges: (squares, inward step) each, and (edge, index) per square. */
    PyObject *edges = spec_item(data, "edges");
    if (!edges) return -1;
    Py_ssize_t edge_count = PySequence_Size(edges);
    if (edge_count < 0 || edge_count > 4) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "fast core spec: edges");
        return -1;
    }
    s->edge_count = (int)edge_count;
    for (int e = 0; e < edge_count; e++) {
        PyObject *edge = PySequence_GetItem(edges, e);
        if (!edge) return -1;
        PyObject *squares = PySequence_GetItem(edge, 0);
        PyObject *inward = PySequence_GetItem(edge, 1);
        int got = squares ? int_sequence(squares, s->edge_sq[e], MAX_N, "edges") : -1;
        s->edge_len[e] = got;
        s->edge_inward[e] = inward ? (int)PyLong_AsLong(inward) : 0;
        Py_XDECREF(squares);
        Py_XDECREF(inward);
        Py_DECREF(edge);
        if (got < 0 || PyErr_Occurred()) return -1;
        for (int i = 0; i < got; i++) {
            int sq = s->edge_sq[e][i];
            int k = s->edge_index_count[sq]++;
            s->edge_index_e[sq][k] = (uint8_t)e;
            s->edge_index_i[sq][k] = (uint8_t)i;
        }
    }
    if (spec_count_tables(s)) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

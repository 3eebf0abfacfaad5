/* Reading a variant's compiled data (bot/engine/core.py's board_spec) into a Spec. */
#ifndef TAFL_SPEC_H
#define TAFL_SPEC_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "board.h"

/* Fill ``s`` from the dict ``data``; returns 0, or -1 with a Python exception set. */
int spec_load(Spec *s, PyObject *data);

/* Helpers shared with the search's own loader. */
long spec_int(PyObject *data, const char *key, int *error);
int spec_bytes(PyObject *data, const char *key, uint8_t *out, Py_ssize_t length);
PyObject *spec_item(PyObject *data, const char *key);

#endif

/* The fast core's search: the C twin of bot/ai/search.py, evaluation.py and tactics.py.
 *
 * Python's Searcher stays the reference and keeps the iterative deepening, the time budget
 * and what it reports; the C side runs one root iteration at a time (Searcher._root and
 * everything below it) on its own board, and the tests prove that both visit the same nodes
 * and find the same moves and scores. Weights and tables come from Python (bot/ai/fast.py).
 */
#ifndef TAFL_SEARCH_H
#define TAFL_SEARCH_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "board.h"

#define MATE 100000
#define MATE_BOUND (MATE - 1000)
#define INFINITY_SCORE (MATE + 1)
#define MAX_PLY 128
#define MAX_QUIESCENCE 6
#define FEW_MOVES 3 /* search.py's FEW_MOVES */
#define LATE_REDUCTION 2 /* search.py's LATE_REDUCTION */
#define REDUCTION_DEPTHS 64 /* search.py's REDUCTION_DEPTHS */
#define REDUCTION_MOVES 256 /* search.py's REDUCTION_MOVES */
#define MAX_KILLER_PLY (MAX_PLY + 16)
#define MAX_GUARDS (4 * 25)
#define MAX_SEGMENTS 8

/* The indices of Search.pruning_settings (search.py's Pruning.core_settings). */
enum {
    PRUNE_STATIC_MARGIN,
    PRUNE_FUTILITY_MARGIN,
    PRUNE_LATE_MOVES,
    PRUNE_LATE_MOVES_STEP,
    PRUNE_DEPTH,
    PRUNE_FUTILITY_DEPTH,
    PRUNE_UNGUIDED_DEPTH,
    PRUNE_KING_ZONE,
    PRUNING_SETTINGS
};

/* Evaluator and geometry tables (Evaluator.__init__, geometry_for). */
typedef struct {
    int count[MAX_SQ];
    uint8_t is_file[MAX_SQ][4];
    uint8_t line[MAX_SQ][4];
    uint32_t mask[MAX_SQ][4];
    uint8_t length[MAX_SQ][4];
    int16_t squares[MAX_SQ][4][MAX_N];
} EscapeRays;

typedef struct {
    int attacker, defender, king_mobility, threat_square, fork_square, king_distance;
    int king_moves, attacker_near_king, line_guard, mobility, tempo;
    int king_closed[5];
    int centre_strong, offset;
    int distance[MAX_SQ];
    int guard_count;
    int16_t guard_square[MAX_GUARDS];
    int guard_value[MAX_GUARDS];
    int segment_count;
    int segment_length[MAX_SEGMENTS];
    int16_t segment[MAX_SEGMENTS][MAX_N];
} Evaluation;

typedef struct {
    uint64_t key;
    int32_t score, move;
    int16_t depth;
    uint8_t flag, used;
} Entry;

typedef struct {
    Entry *entries;
    size_t capacity, count;
} Table;

typedef struct {
    uint64_t *keys;
    size_t capacity;
} KeySet;

#define EVAL_CACHE_BITS 16

typedef struct {
    uint64_t key;
    int32_t value, used;
} CachedEval;

/* Two separate ways out for the king, by the attackers' squares and the king's: the squares
 * of two paths from the king to the edge that share no square (a bit a square). While they
 * are free, no attackers' move can encircle the defenders (see encirclement_candidates). */
#define WAYS_OUT_BITS 14

typedef struct {
    uint64_t key; /* 0: empty */
    uint64_t squares[(MAX_SQ + 63) / 64];
    int none; /* there are not two such paths */
} WaysOut;

typedef struct {
    Spec spec;
    EscapeRays rays;
    Evaluation eval;
    Board board;
    Table tt;
    KeySet seen;
    uint64_t path[MAX_STACK];
    int path_length;
    uint16_t path_filter[1024];
    /* Bit masks a rank (or a file) at a time, from the spec and the rays (search_prepare): */
    uint32_t hostile_rows[2][MAX_N]; /* by the side to move: the squares hostile to its enemies */
    uint32_t barred_rows[MAX_N], barred_cols[MAX_N]; /* the squares barred to the king */
    uint32_t route_rows[MAX_N], route_cols[MAX_N];   /* the squares with escape rays */
    int64_t *history[2]; /* Searcher.history_table, by history_index */
    int64_t history_max[2]; /* no entry of the side's history is larger */
    /* The history's increments made while a node waits to order its other moves (it searched
     * its first move before generating them, and orders them by the history as it was). */
    uint32_t *journal;
    size_t journal_length, journal_capacity;
    int pending; /* nodes waiting so */
    int32_t killers[MAX_KILLER_PLY][2];
    int64_t nodes;
    int draw_scores[2];
    int repetition_winner; /* ATTACKERS, DEFENDERS, -1: a draw, -2: the mover into it loses */
    int noise;
    uint64_t noise_key;
    int quiescence, reads_threats;
    int reductions; /* late-move reductions (0: full width, to prove a position) */
    int even_reductions; /* late moves read LATE_REDUCTION plies shallower (search.py's) */
    uint8_t late_reductions[REDUCTION_DEPTHS][REDUCTION_MOVES]; /* search.py's LATE_REDUCTIONS */
    int pruning; /* shallow nodes off the principal variation cut short (search.py's Pruning) */
    int pruning_settings[PRUNING_SETTINGS]; /* Pruning.core_settings, by the PRUNE_* indices */
    int forts; /* exit forts and encirclement (Copenhagen) */
    PyObject *check; /* called every 1,024 nodes: true ends the search */
    int aborted;     /* 1: the check said stop; 2: it raised */
    int has_partial;
    int32_t partial_move, partial_score;
    /* The evaluation is a function of the position (its hash), so leaves met again (in the
     * next iteration, or by another move order) are not evaluated twice. */
    CachedEval eval_cache[1 << EVAL_CACHE_BITS];
    /* Layouts (the attackers' squares and the king's) with two separate ways out. */
    WaysOut ways_out[1 << WAYS_OUT_BITS];
} Search;

/* Searcher._root: one iteration at ``depth``. Returns 0, or -1 when it was stopped. */
int search_root(Search *s, int depth, const int32_t *moves, int count,
                const int32_t *previous_moves, const int32_t *previous_scores,
                int previous_count, int32_t *score_out, int32_t *best_out, int32_t *scores,
                int32_t *ordered, int *scored);
int search_pv(Search *s, int32_t first, int depth, int32_t *out);
int evaluate(Search *s);

/* A move's place in the history table: origin * area + target (dense, unlike the move int). */
static inline size_t history_index(const Search *s, int32_t move) {
    return (size_t)(move >> MOVE_SHIFT) * (size_t)s->spec.area + (size_t)(move & TARGET_MASK);
}

void *search_memory(size_t bytes);
void search_prepare(Search *s); /* once its spec is loaded */
Entry *table_find(const Table *t, uint64_t key);
int table_store(Table *t, uint64_t key, int depth, int flag, int score, int move);
void table_clear(Table *t);
int keyset_fill(KeySet *set, const uint64_t *keys, size_t count);

#endif

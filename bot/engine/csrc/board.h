/* The fast core's board: the C twin of bot/engine/board.py and bot/engine/rules.py.
 *
 * The Python engine is the reference: every function here mirrors one there (named in its
 * comment) and the tests prove them identical (perft, random games, searches). A variant's
 * data (special squares, hostility, Zobrist keys, rays, lines) is never written here: Python
 * compiles it once (bot/engine/core.py, from bot/engine/tables.py and rules.py) and hands it
 * to spec_load(); only the rule families' behaviour is code.
 *
 * Moves are ints origin << 9 | target, squares rank * n + file, pieces 0..3 as in Python.
 */
#ifndef TAFL_BOARD_H
#define TAFL_BOARD_H

#include <stdint.h>

#define MAX_N 11          /* the largest board of the variants (Python plays up to 19x19) */
#define MAX_SQ (MAX_N * MAX_N)
#define MAX_LINES (2 * MAX_N)
#define MAX_CODES 8       /* normal, throne, corner, up to five camps */
/* At most two pieces reach an empty square along each of its lines (the nearest on each
 * side), so a position has fewer than 4 moves per square, the king's aside. */
#define MAX_MOVES (4 * MAX_SQ + 4 * MAX_N)
#define MAX_CAPTURES 48   /* three custodial and two shieldwall rows per edge, at most */
#define MAX_STACK 384     /* plies a board can be made ahead of its root */
#define MOVE_SHIFT 9
#define TARGET_MASK ((1 << MOVE_SHIFT) - 1)

enum { EMPTY = 0, ATTACKER = 1, DEFENDER = 2, KING = 3 };
enum { ATTACKERS = 0, DEFENDERS = 1 };
enum { CODE_NORMAL = 0, CODE_THRONE = 1, CODE_CORNER = 2, CODE_CAMP = 3 };

/* The rule families of bot/engine/rules.py (rules_for picks one per variant). */
enum { FAMILY_CENTRE_STRONG = 0, FAMILY_SURROUNDED = 1, FAMILY_GROUP = 2, FAMILY_COPENHAGEN = 3 };

/* How a move ended the game: indices of bot/engine/core.py's STATUS tuple (0: it goes on). */
enum {
    ST_NONE = 0,
    ST_KING_ESCAPED = 1,
    ST_KING_CAPTURED = 2,
    ST_GROUP_CAPTURED = 3,
    ST_TUICHI = 4,
    ST_EXIT_FORT = 5,
    ST_ENCIRCLEMENT = 6,
};

/* One variant, compiled: what Tables and the Rules object hold in Python. Read-only. */
typedef struct {
    int n, area, throne, first_side, family;
    int king_armed, linnaean, tuichi_wins, extra_captures;
    int empty_throne_hostile_att, empty_throne_hostile_def, occupied_throne_hostile_def;
    uint8_t is_escape[MAX_SQ], king_barred[MAX_SQ], closes_ring[MAX_SQ];
    uint8_t hostile_att[MAX_SQ], hostile_def[MAX_SQ], is_corner[MAX_SQ], is_edge[MAX_SQ];
    uint8_t throne_nb[MAX_SQ];
    uint64_t zobrist[4][MAX_SQ];
    uint64_t zobrist_side;
    uint8_t nb_count[MAX_SQ];
    int16_t nb[MAX_SQ][4];
    uint8_t pair_count[MAX_SQ];
    int16_t pair_victim[MAX_SQ][4], pair_anvil[MAX_SQ][4];
    uint8_t ray_count[MAX_SQ];
    uint8_t ray_len[MAX_SQ][4];
    int16_t ray[MAX_SQ][4][MAX_N];
    /* Lines: ranks 0..n-1, then files n..2n-1; bit i of a line mask is its i-th square. */
    int16_t line_sq[MAX_LINES][MAX_N];
    uint8_t line_code[MAX_LINES][MAX_N];
    uint32_t line_block[MAX_LINES][MAX_CODES]; /* squares that stop a piece starting on code */
    uint32_t line_stop[MAX_LINES][MAX_CODES];  /* squares where it may stop */
    uint32_t line_king_block[MAX_LINES];       /* squares barred to the king */
    /* Lines alike in their special squares share a type; for each type and occupancy, how
     * many moves the piece on each square of the line has, four bits a square (count_moves
     * adds those of the side's pieces without walking them). */
    int line_type[MAX_LINES];
    int type_count;
    uint64_t *line_counts; /* type_count << n entries, owned by the spec */
    /* Copenhagen's edges (shieldwalls): squares in order and the step inwards. */
    int edge_count;
    int16_t edge_sq[4][MAX_N];
    int edge_len[4], edge_inward[4];
    uint8_t edge_index_count[MAX_SQ];
    uint8_t edge_index_e[MAX_SQ][2], edge_index_i[MAX_SQ][2];
} Spec;

typedef struct {
    int32_t move;
    uint8_t piece, ncap, prev_status;
    uint64_t prev_hash;
    int16_t caps[MAX_CAPTURES];
} Frame;

/* The mutable position (Board in board.py): cells, per-line occupancy masks, the hash. */
typedef struct {
    const Spec *spec;
    uint8_t cells[MAX_SQ];
    uint32_t occ_rows[MAX_N], occ_cols[MAX_N];
    uint32_t side_rows[2][MAX_N], side_cols[2][MAX_N];
    int king, turn, status;
    int men[2]; /* pieces of each side on the board, the king aside */
    uint64_t hash;
    int sp;
    Frame stack[MAX_STACK];
} Board;

void board_init(Board *b, const Spec *s, const uint8_t *cells, int turn);
int spec_count_tables(Spec *s); /* fills line_type and line_counts; -1: out of memory */
void spec_free(Spec *s);
int board_moves(const Board *b, int32_t *out);
int board_count_moves(const Board *b);
int board_has_more_moves(const Board *b, int limit);
void board_count_both(const Board *b, int counts[2]);
int board_king_moves(const Board *b, int32_t *out);
int board_king_routes(const Board *b, int32_t *out);
int board_has_moves(const Board *b);
int board_make(Board *b, int32_t move);
void board_unmake(Board *b);
int board_would_capture(Board *b, int32_t move);
int board_captures_by(const Board *b, int piece, int target, int16_t *out);
void board_pass_turn(Board *b);
int board_winning_moves(Board *b, int32_t *moves, int32_t *statuses);
int board_king_capturing_moves(Board *b, int32_t *out);
int board_attackers_reaching(const Board *b, int target, int32_t *out);
int board_is_legal(const Board *b, int32_t move);
int board_exit_fort(const Board *b, uint8_t *fort);
int64_t board_perft(Board *b, int depth);
void board_perft_captures(Board *b, int depth, int64_t *leaves, int64_t *captures);

/* Bits set in a line mask. The compiler's builtin is a library call on baseline x86-64 (no
 * POPCNT instruction), and line masks are short: a table of 2 ** 11 counts answers them. */
extern const uint8_t POPCOUNT11[1 << MAX_N];
static inline int popcount32(uint32_t x) {
    int count = 0;
    while (x) {
        count += POPCOUNT11[x & ((1u << MAX_N) - 1)];
        x >>= MAX_N;
    }
    return count;
}

#endif

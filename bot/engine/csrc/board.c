/* The fast core's board: move generation, make/unmake, captures and endings.
 *
 * Each function mirrors the Python function named in its comment, statement for statement
 * where the order of results matters (move lists are generated in Python's order, so that a
 * search over them visits the same nodes). See board.h.
 */
#include "board.h"

#include <stdlib.h>
#include <string.h>

#define B2(n) n, n + 1, n + 1, n + 2
#define B4(n) B2(n), B2(n + 1), B2(n + 1), B2(n + 2)
#define B6(n) B4(n), B4(n + 1), B4(n + 1), B4(n + 2)
#define B8(n) B6(n), B6(n + 1), B6(n + 1), B6(n + 2)
#define B10(n) B8(n), B8(n + 1), B8(n + 1), B8(n + 2)
_Static_assert(MAX_N == 11, "POPCOUNT11 counts 11-bit masks");
const uint8_t POPCOUNT11[1 << MAX_N] = {B10(0), B10(1)};

static inline int lowest_bit(uint32_t x) { return __builtin_ctz(x); }
static inline int highest_bit(uint32_t x) { return 31 - __builtin_clz(x); }

/* ------------------------------------------------------------------ set-up */

/* Board.__init__ */
void board_init(Board *b, const Spec *s, const uint8_t *cells, int turn) {
    int n = s->n;
    memset(b, 0, sizeof(*b) - sizeof(b->stack));
    b->spec = s;
    b->turn = turn;
    b->king = -1;
    b->hash = turn ? s->zobrist_side : 0;
    for (int sq = 0; sq < s->area; sq++) {
        int piece = cells[sq];
        b->cells[sq] = (uint8_t)piece;
        if (piece == EMPTY) continue;
        int rank = sq / n, file = sq % n;
        b->occ_rows[rank] |= 1u << file;
        b->occ_cols[file] |= 1u << rank;
        b->hash ^= s->zobrist[piece][sq];
        if (piece == KING) {
            b->king = sq;
        } else {
            int side = piece == ATTACKER ? ATTACKERS : DEFENDERS;
            b->side_rows[side][rank] |= 1u << file;
            b->side_cols[side][file] |= 1u << rank;
            b->men[side]++;
        }
    }
    b->status = ST_NONE;
    b->sp = 0;
}

/* ------------------------------------------------------------------ move generation */

static void line_reach(const Spec *s, int L, int i, uint32_t occ, uint32_t *down, uint32_t *up);

/* NIBBLES[own]: four bits set for every bit of ``own`` (selects the pieces' counts). */
static uint64_t NIBBLES[1 << MAX_N];

int spec_count_tables(Spec *s) {
    int n = s->n;
    if (!NIBBLES[1]) {
        for (uint32_t own = 0; own < (1u << MAX_N); own++) {
            uint64_t mask = 0;
            for (int j = 0; j < MAX_N; j++)
                if (own >> j & 1) mask |= (uint64_t)0xF << (4 * j);
            NIBBLES[own] = mask;
        }
    }
    int representative[MAX_LINES];
    s->type_count = 0;
    for (int L = 0; L < 2 * n; L++) {
        int type = -1;
        for (int t = 0; t < s->type_count && type < 0; t++)
            if (!memcmp(s->line_code[representative[t]], s->line_code[L], (size_t)n)) type = t;
        if (type < 0) {
            type = s->type_count++;
            representative[type] = L;
        }
        s->line_type[L] = type;
    }
    free(s->line_counts);
    s->line_counts = malloc(((size_t)s->type_count << n) * sizeof(uint64_t));
    if (!s->line_counts) return -1;
    for (int t = 0; t < s->type_count; t++) {
        int L = representative[t];
        for (uint32_t occ = 0; occ < (1u << n); occ++) {
            uint64_t packed = 0;
            for (int i = 0; i < n; i++) {
                if (!(occ >> i & 1)) continue;
                uint32_t down, up;
                line_reach(s, L, i, occ, &down, &up);
                packed |= (uint64_t)(popcount32(down) + popcount32(up)) << (4 * i);
            }
            s->line_counts[((size_t)t << n) | occ] = packed;
        }
    }
    return 0;
}

void spec_free(Spec *s) {
    free(s->line_counts);
    s->line_counts = NULL;
}

/* How many moves the pieces ``own`` have along line L: their counts summed, nibble by nibble
 * (a piece has at most n - 1 <= 10 moves along a line, and a line at most 120). */
static inline int nibble_sum(uint64_t counts) {
    uint64_t bytes = (counts & 0x0F0F0F0F0F0F0F0FULL) + (counts >> 4 & 0x0F0F0F0F0F0F0F0FULL);
    return (int)((bytes * 0x0101010101010101ULL) >> 56);
}

static inline int line_count(const Spec *s, int L, uint32_t occ, uint32_t own) {
    return nibble_sum(s->line_counts[((size_t)s->line_type[L] << s->n) | occ] & NIBBLES[own]);
}

/* Tables.fill_line for the piece at index i of line L: where it may stop going down (towards
 * index 0) and up. Squares that block it (pieces, corners, the throne where it may not pass,
 * other camps) end the slide; the passable throne is crossed but never stopped on. */
static inline void line_reach(const Spec *s, int L, int i, uint32_t occ, uint32_t *down,
                              uint32_t *up) {
    int code = s->line_code[L][i];
    uint32_t blockers = occ | s->line_block[L][code];
    uint32_t stop = s->line_stop[L][code];
    uint32_t full = (1u << s->n) - 1;
    uint32_t below = (1u << i) - 1;
    uint32_t hit = blockers & below;
    uint32_t d = hit ? below & ~((2u << highest_bit(hit)) - 1) : below;
    uint32_t above = full & ~((2u << i) - 1);
    hit = blockers & above;
    uint32_t u = hit ? ((hit & -hit) - 1) & above : above;
    *down = d & stop;
    *up = u & stop;
}

/* The moves of the pieces ``own`` along line L, in Tables.fill_line's order: each piece from
 * index 0 up, its moves downwards (nearest first), then upwards. */
static inline int line_moves(const Spec *s, int L, uint32_t occ, uint32_t own, int32_t *out) {
    int count = 0;
    while (own) {
        int i = lowest_bit(own);
        own &= own - 1;
        uint32_t down, up;
        line_reach(s, L, i, occ, &down, &up);
        int32_t origin = (int32_t)s->line_sq[L][i] << MOVE_SHIFT;
        while (down) {
            int j = highest_bit(down);
            down &= ~(1u << j);
            out[count++] = origin | s->line_sq[L][j];
        }
        while (up) {
            int j = lowest_bit(up);
            up &= up - 1;
            out[count++] = origin | s->line_sq[L][j];
        }
    }
    return count;
}

/* Board.king_moves */
int board_king_moves(const Board *b, int32_t *out) {
    const Spec *s = b->spec;
    int king = b->king, count = 0;
    int32_t origin = (int32_t)king << MOVE_SHIFT;
    for (int r = 0; r < s->ray_count[king]; r++) {
        const int16_t *ray = s->ray[king][r];
        for (int k = 0; k < s->ray_len[king][r]; k++) {
            int sq = ray[k];
            if (b->cells[sq] || s->king_barred[sq]) break;
            out[count++] = origin | sq;
        }
    }
    return count;
}

/* Board.moves */
int board_moves(const Board *b, int32_t *out) {
    if (b->status) return 0;
    const Spec *s = b->spec;
    int n = s->n, side = b->turn, count = 0;
    for (int r = 0; r < n; r++) {
        uint32_t own = b->side_rows[side][r];
        if (own) count += line_moves(s, r, b->occ_rows[r], own, out + count);
    }
    for (int f = 0; f < n; f++) {
        uint32_t own = b->side_cols[side][f];
        if (own) count += line_moves(s, n + f, b->occ_cols[f], own, out + count);
    }
    if (side == DEFENDERS && b->king >= 0) count += board_king_moves(b, out + count);
    return count;
}

/* Board.count_moves */
int board_count_moves(const Board *b) {
    if (b->status) return 0;
    const Spec *s = b->spec;
    int n = s->n, side = b->turn, count = 0;
    for (int r = 0; r < n; r++) {
        uint32_t own = b->side_rows[side][r];
        if (own) count += line_count(s, r, b->occ_rows[r], own);
    }
    for (int f = 0; f < n; f++) {
        uint32_t own = b->side_cols[side][f];
        if (own) count += line_count(s, n + f, b->occ_cols[f], own);
    }
    if (side == DEFENDERS && b->king >= 0) {
        int32_t buffer[4 * MAX_N];
        count += board_king_moves(b, buffer);
    }
    return count;
}

/* How many squares the king reaches along line L from its index i (board_king_moves' count:
 * pieces and the squares barred to him stop him). */
static inline int king_line_count(const Spec *s, int L, int i, uint32_t occ) {
    uint32_t blockers = occ | s->line_king_block[L];
    uint32_t full = (1u << s->n) - 1;
    uint32_t below = (1u << i) - 1;
    uint32_t hit = blockers & below;
    uint32_t d = hit ? below & ~((2u << highest_bit(hit)) - 1) : below;
    uint32_t above = full & ~((2u << i) - 1);
    hit = blockers & above;
    uint32_t u = hit ? ((hit & -hit) - 1) & above : above;
    return popcount32(d | u);
}

/* Whether the side to move has more than ``limit`` moves (board_count_moves() > limit),
 * stopping as soon as it knows: the few-moves test needs no full count. */
int board_has_more_moves(const Board *b, int limit) {
    if (b->status) return 0;
    const Spec *s = b->spec;
    int n = s->n, side = b->turn, count = 0;
    for (int r = 0; r < n; r++) {
        uint32_t own = b->side_rows[side][r];
        if (own && (count += line_count(s, r, b->occ_rows[r], own)) > limit) return 1;
    }
    for (int f = 0; f < n; f++) {
        uint32_t own = b->side_cols[side][f];
        if (own && (count += line_count(s, n + f, b->occ_cols[f], own)) > limit) return 1;
    }
    if (side == DEFENDERS && b->king >= 0) {
        int32_t buffer[4 * MAX_N];
        count += board_king_moves(b, buffer);
    }
    return count > limit;
}

/* board_count_moves for both sides at once (the evaluation's mobility): ``counts[side]``,
 * as if that side were to move. Each line's counts are summed in byte lanes (a lane holds at
 * most 22 lines of at most 10 moves) and the lanes added up once at the end. */
void board_count_both(const Board *b, int counts[2]) {
    counts[0] = counts[1] = 0;
    if (b->status) return;
    const Spec *s = b->spec;
    int n = s->n;
    const uint64_t lanes = 0x0F0F0F0F0F0F0F0FULL;
    uint64_t sums[4] = {0, 0, 0, 0}; /* attackers' even and odd nibbles, defenders' */
    const uint64_t *table = s->line_counts;
    for (int r = 0; r < n; r++) {
        uint32_t occ = b->occ_rows[r];
        uint64_t all = table[((size_t)s->line_type[r] << n) | occ];
        uint64_t att = all & NIBBLES[b->side_rows[0][r]];
        uint64_t def = all & NIBBLES[b->side_rows[1][r]];
        sums[0] += att & lanes;
        sums[1] += att >> 4 & lanes;
        sums[2] += def & lanes;
        sums[3] += def >> 4 & lanes;
    }
    for (int f = 0; f < n; f++) {
        uint32_t occ = b->occ_cols[f];
        uint64_t all = table[((size_t)s->line_type[n + f] << n) | occ];
        uint64_t att = all & NIBBLES[b->side_cols[0][f]];
        uint64_t def = all & NIBBLES[b->side_cols[1][f]];
        sums[0] += att & lanes;
        sums[1] += att >> 4 & lanes;
        sums[2] += def & lanes;
        sums[3] += def >> 4 & lanes;
    }
    for (int side = 0; side < 2; side++) {
        uint64_t even = sums[2 * side], odd = sums[2 * side + 1];
        uint64_t words = (even & 0x00FF00FF00FF00FFULL) + (even >> 8 & 0x00FF00FF00FF00FFULL) +
                         (odd & 0x00FF00FF00FF00FFULL) + (odd >> 8 & 0x00FF00FF00FF00FFULL);
        counts[side] = (int)((words * 0x0001000100010001ULL) >> 48);
    }
    int king = b->king;
    if (king >= 0) {
        int rank = king / n, file = king % n;
        counts[1] += king_line_count(s, rank, file, b->occ_rows[rank]) +
                     king_line_count(s, n + file, rank, b->occ_cols[file]);
    }
}

/* Board.has_moves */
int board_has_moves(const Board *b) {
    if (b->status) return 0;
    const Spec *s = b->spec;
    int n = s->n, side = b->turn;
    for (int r = 0; r < n; r++) {
        uint32_t own = b->side_rows[side][r];
        if (own && line_count(s, r, b->occ_rows[r], own)) return 1;
    }
    for (int f = 0; f < n; f++) {
        uint32_t own = b->side_cols[side][f];
        if (own && line_count(s, n + f, b->occ_cols[f], own)) return 1;
    }
    if (side == DEFENDERS && b->king >= 0) {
        int32_t buffer[4 * MAX_N];
        return board_king_moves(b, buffer) > 0;
    }
    return 0;
}

/* Board.king_routes: the escape squares the king reaches in one move. */
int board_king_routes(const Board *b, int32_t *out) {
    if (b->king < 0) return 0;
    int32_t moves[4 * MAX_N];
    int count = board_king_moves(b, moves), routes = 0;
    for (int k = 0; k < count; k++) {
        int target = moves[k] & TARGET_MASK;
        if (b->spec->is_escape[target]) out[routes++] = target;
    }
    return routes;
}

/* Whether the ordinary piece on ``origin`` may move to ``target`` along their shared line
 * (the check of Board.attackers_reaching and Board.is_legal). */
static int line_allows(const Board *b, int origin, int target) {
    const Spec *s = b->spec;
    int n = s->n;
    int L, i, j;
    uint32_t occ;
    if (origin / n == target / n) {
        L = origin / n;
        i = origin % n;
        j = target % n;
        occ = b->occ_rows[L];
    } else if (origin % n == target % n) {
        L = n + origin % n;
        i = origin / n;
        j = target / n;
        occ = b->occ_cols[origin % n];
    } else {
        return 0;
    }
    uint32_t down, up;
    line_reach(s, L, i, occ, &down, &up);
    return ((down | up) >> j) & 1;
}

/* Board.attackers_reaching */
int board_attackers_reaching(const Board *b, int target, int32_t *out) {
    const Spec *s = b->spec;
    int count = 0;
    for (int r = 0; r < s->ray_count[target]; r++) {
        const int16_t *ray = s->ray[target][r];
        for (int k = 0; k < s->ray_len[target][r]; k++) {
            int sq = ray[k];
            int piece = b->cells[sq];
            if (piece == EMPTY) continue;
            if (piece == ATTACKER && line_allows(b, sq, target))
                out[count++] = (int32_t)sq << MOVE_SHIFT | target;
            break;
        }
    }
    return count;
}

/* Board.is_legal */
int board_is_legal(const Board *b, int32_t move) {
    if (b->status) return 0;
    int origin = move >> MOVE_SHIFT, target = move & TARGET_MASK;
    int piece = b->cells[origin];
    if (piece == KING) {
        if (b->turn != DEFENDERS) return 0;
        int32_t moves[4 * MAX_N];
        int count = board_king_moves(b, moves);
        for (int k = 0; k < count; k++)
            if (moves[k] == move) return 1;
        return 0;
    }
    if (piece == EMPTY || (piece == ATTACKER ? ATTACKERS : DEFENDERS) != b->turn) return 0;
    return origin != target && line_allows(b, origin, target);
}

/* ------------------------------------------------------------------ captures */

/* Board._king_hemmed_except: Linnaeus law 10. */
static int king_hemmed_except(const Board *b, int beside) {
    const Spec *s = b->spec;
    int king = b->king;
    for (int k = 0; k < s->nb_count[king]; k++) {
        int sq = s->nb[king][k];
        if (sq != beside && b->cells[sq] != ATTACKER) return 0;
    }
    return 1;
}

/* Board.captures_by */
static int captures_by(const Board *b, int piece, int target, int16_t *out) {
    const Spec *s = b->spec;
    const uint8_t *cells = b->cells;
    int count = 0;
    if (piece == ATTACKER) {
        for (int k = 0; k < s->pair_count[target]; k++) {
            int victim = s->pair_victim[target][k], anvil = s->pair_anvil[target][k];
            if (cells[victim] != DEFENDER) continue;
            int beyond = cells[anvil];
            if (beyond == ATTACKER || s->hostile_def[anvil]) {
                out[count++] = (int16_t)victim;
            } else if (anvil == s->throne) {
                if (beyond == EMPTY) {
                    if (s->empty_throne_hostile_def) out[count++] = (int16_t)victim;
                } else if (s->occupied_throne_hostile_def ||
                           (s->linnaean && king_hemmed_except(b, victim))) {
                    out[count++] = (int16_t)victim;
                }
            }
        }
    } else if (piece == DEFENDER || s->king_armed) {
        for (int k = 0; k < s->pair_count[target]; k++) {
            int victim = s->pair_victim[target][k], anvil = s->pair_anvil[target][k];
            if (cells[victim] != ATTACKER) continue;
            int beyond = cells[anvil];
            if (beyond == DEFENDER || (beyond == KING && s->king_armed) || s->hostile_att[anvil] ||
                (anvil == s->throne && beyond == EMPTY && s->empty_throne_hostile_att))
                out[count++] = (int16_t)victim;
        }
    }
    return count;
}

/* CopenhagenRules._is_enemy / _is_friend */
static inline int is_enemy(int piece, int other) {
    return piece == ATTACKER ? (other == DEFENDER || other == KING) : other == ATTACKER;
}
static inline int is_friend(int piece, int other) {
    return piece == ATTACKER ? other == ATTACKER : (other == DEFENDER || other == KING);
}

/* CopenhagenRules._wall and _row_captures: the mover on edge e brackets a row from start. */
static int wall(const Board *b, int piece, int e, int start, int step, int16_t *out) {
    const Spec *s = b->spec;
    const int16_t *squares = s->edge_sq[e];
    int length = s->edge_len[e];
    int i = start;
    while (0 <= i && i < length && is_enemy(piece, b->cells[squares[i]])) i += step;
    if (i == start || i < 0 || i >= length) return 0;
    int end = squares[i];
    if (s->is_corner[end] ? b->cells[end] != EMPTY : !is_friend(piece, b->cells[end])) return 0;
    int first = start < i - step ? start : i - step;
    int last = start < i - step ? i - step : start;
    if (last - first < 1) return 0;
    int inward = s->edge_inward[e];
    for (int k = first; k <= last; k++)
        if (!is_friend(piece, b->cells[squares[k] + inward])) return 0;
    int count = 0;
    for (int k = first; k <= last; k++)
        if (b->cells[squares[k]] != KING) out[count++] = squares[k];
    return count;
}

/* CopenhagenRules.more_captures: shieldwalls. */
static int more_captures(const Board *b, int piece, int target, int16_t *out) {
    const Spec *s = b->spec;
    int count = 0;
    for (int k = 0; k < s->edge_index_count[target]; k++) {
        int e = s->edge_index_e[target][k], i = s->edge_index_i[target][k];
        count += wall(b, piece, e, i - 1, -1, out + count);
        count += wall(b, piece, e, i + 1, 1, out + count);
    }
    return count;
}

/* ------------------------------------------------------------------ king capture, endings */

/* The family's Rules.ring_closed */
static int ring_closed(const Board *b, int target) {
    const Spec *s = b->spec;
    const uint8_t *cells = b->cells;
    int king = b->king, throne = s->throne;
    switch (s->family) {
    case FAMILY_CENTRE_STRONG:
        if (king == throne || s->throne_nb[king]) {
            for (int k = 0; k < s->nb_count[king]; k++) {
                int sq = s->nb[king][k];
                if (!(sq == target || sq == throne || cells[sq] == ATTACKER)) return 0;
            }
            return 1;
        }
        for (int k = 0; k < s->pair_count[target]; k++) {
            if (s->pair_victim[target][k] == king) {
                int anvil = s->pair_anvil[target][k];
                return cells[anvil] == ATTACKER || s->hostile_def[anvil];
            }
        }
        return 0;
    case FAMILY_COPENHAGEN:
        if (s->nb_count[king] != 4) return 0; /* never on the edge */
        for (int k = 0; k < 4; k++) {
            int sq = s->nb[king][k];
            if (!(sq == target || cells[sq] == ATTACKER || (sq == throne && cells[sq] == EMPTY)))
                return 0;
        }
        return 1;
    default: /* SurroundedRules, GroupRules */
        for (int k = 0; k < s->nb_count[king]; k++) {
            int sq = s->nb[king][k];
            if (!(sq == target || cells[sq] == ATTACKER || (s->closes_ring[sq] && cells[sq] == EMPTY)))
                return 0;
        }
        return 1;
    }
}

/* GroupRules.king_captured */
static int group_captured(const Board *b, int target) {
    const Spec *s = b->spec;
    const uint8_t *cells = b->cells;
    int king = b->king;
    for (int k = 0; k < s->nb_count[king]; k++) {
        int sq = s->nb[king][k];
        if (cells[sq] == EMPTY && !s->closes_ring[sq]) return ST_NONE;
    }
    uint8_t in_group[MAX_SQ];
    memset(in_group, 0, (size_t)s->area);
    int16_t frontier[MAX_SQ];
    int top = 0, size = 1, touches_mover = 0;
    in_group[king] = 1;
    frontier[top++] = (int16_t)king;
    while (top) {
        int sq = frontier[--top];
        for (int k = 0; k < s->nb_count[sq]; k++) {
            int nb = s->nb[sq][k];
            int piece = cells[nb];
            if (piece == DEFENDER) {
                if (!in_group[nb]) {
                    in_group[nb] = 1;
                    size++;
                    frontier[top++] = (int16_t)nb;
                }
            } else if (piece == EMPTY) {
                if (!s->closes_ring[nb]) return ST_NONE;
            } else if (nb == target) {
                touches_mover = 1;
            }
        }
    }
    if (!touches_mover) return ST_NONE;
    return size > 1 ? ST_GROUP_CAPTURED : ST_KING_CAPTURED;
}

/* Rules.king_captured (GroupRules's own for the group family) */
static int king_captured(const Board *b, int target) {
    const Spec *s = b->spec;
    if (s->family == FAMILY_GROUP) return group_captured(b, target);
    int king = b->king;
    for (int k = 0; k < s->nb_count[king]; k++)
        if (s->nb[king][k] == target) return ring_closed(b, target) ? ST_KING_CAPTURED : ST_NONE;
    return ST_NONE;
}

/* Whether some defender or the king sees the edge along a rank or a file with no attacker in
 * the way: that line joins it to the edge through squares an attacker does not hold, so its
 * region reaches the edge, or it is outside the king's; either way there is no encirclement.
 * Per line: is a piece of the defenders below the lowest attacker, or above the highest? */
static int defender_sees_edge(const Board *b) {
    int n = b->spec->n, king = b->king;
    for (int line = 0; line < 2 * n; line++) {
        int rank = line < n, index = rank ? line : line - n;
        uint32_t attackers = rank ? b->side_rows[ATTACKERS][index] : b->side_cols[ATTACKERS][index];
        uint32_t defenders = rank ? b->side_rows[DEFENDERS][index] : b->side_cols[DEFENDERS][index];
        if (rank ? king / n == index : king % n == index)
            defenders |= 1u << (rank ? king % n : king / n);
        if (!defenders) continue;
        if (!attackers) return 1;
        uint32_t lowest = attackers & -attackers;
        if (defenders & (lowest - 1)) return 1;
        uint32_t highest = 1u << (31 - __builtin_clz(attackers));
        if (defenders & ~((highest << 1) - 1)) return 1;
    }
    return 0;
}

/* CopenhagenRules._encircled */
static int encircled(const Board *b) {
    const Spec *s = b->spec;
    const uint8_t *cells = b->cells;
    if (defender_sees_edge(b)) return 0; /* the flood would find the same, slower */
    uint8_t seen[MAX_SQ];
    memset(seen, 0, (size_t)s->area);
    int16_t frontier[MAX_SQ];
    int top = 0, defenders = 0;
    seen[b->king] = 1;
    frontier[top++] = (int16_t)b->king;
    while (top) {
        int sq = frontier[--top];
        if (s->is_edge[sq]) return 0;
        for (int k = 0; k < s->nb_count[sq]; k++) {
            int nb = s->nb[sq][k];
            if (!seen[nb] && cells[nb] != ATTACKER) {
                seen[nb] = 1;
                frontier[top++] = (int16_t)nb;
                if (cells[nb] == DEFENDER) defenders++;
            }
        }
    }
    return defenders == b->men[DEFENDERS];
}

/* CopenhagenRules.exit_fort: whether the king's exit fort holds; its squares go to ``fort``
 * (a mask by square) when given. */
int board_exit_fort(const Board *b, uint8_t *fort) {
    const Spec *s = b->spec;
    const uint8_t *cells = b->cells;
    int king = b->king, n = s->n, area = s->area;
    if (king < 0 || !s->is_edge[king]) return 0;
    int32_t moves[4 * MAX_N];
    if (!board_king_moves(b, moves)) return 0;
    uint8_t in_fort[MAX_SQ], wall_of[MAX_SQ], held[MAX_SQ], holding[MAX_SQ];
    memset(in_fort, 0, (size_t)area);
    memset(wall_of, 0, (size_t)area);
    int16_t frontier[MAX_SQ];
    int top = 0;
    in_fort[king] = 1;
    frontier[top++] = (int16_t)king;
    while (top) {
        int sq = frontier[--top];
        for (int k = 0; k < s->nb_count[sq]; k++) {
            int nb = s->nb[sq][k];
            int here = cells[nb];
            if (here == ATTACKER) return 0;
            if (here == EMPTY && !in_fort[nb]) {
                in_fort[nb] = 1;
                frontier[top++] = (int16_t)nb;
            } else if (here == DEFENDER) {
                wall_of[nb] = 1;
            }
        }
    }
    /* The greatest set of defenders each held on its rank and its file by the board's edge,
     * a fort square (not a corner or the throne: they are hostile) or another member. */
    for (int sq = 0; sq < area; sq++) {
        holding[sq] = in_fort[sq] && !s->is_corner[sq] && sq != s->throne;
        held[sq] = cells[sq] == DEFENDER;
    }
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int sq = 0; sq < area; sq++) {
            if (!held[sq]) continue;
            int rank = sq / n, file = sq % n;
            int along_rank = file == 0 || file == n - 1 || holding[sq - 1] || holding[sq + 1] ||
                             held[sq - 1] || held[sq + 1];
            int along_file = rank == 0 || rank == n - 1 || holding[sq - n] || holding[sq + n] ||
                             held[sq - n] || held[sq + n];
            if (!(along_rank && along_file)) {
                held[sq] = 0;
                changed = 1;
            }
        }
    }
    for (int sq = 0; sq < area; sq++)
        if (wall_of[sq] && !held[sq]) return 0;
    if (fort) memcpy(fort, in_fort, (size_t)area);
    return 1;
}

/* Rules.after_attackers_move (CopenhagenRules's adds encirclement) */
static int after_attackers_move(const Board *b, int target) {
    if (b->king < 0) return ST_NONE;
    int status = king_captured(b, target);
    if (status) return status;
    if (b->spec->family == FAMILY_COPENHAGEN && encircled(b)) return ST_ENCIRCLEMENT;
    return ST_NONE;
}

/* Rules.after_defenders_move (CopenhagenRules's has the exit fort instead of Tuichi) */
static int after_defenders_move(const Board *b, int piece, int target) {
    const Spec *s = b->spec;
    if (piece == KING && s->is_escape[target]) return ST_KING_ESCAPED;
    if (s->family == FAMILY_COPENHAGEN) {
        if (b->king >= 0 && s->is_edge[b->king] && board_exit_fort(b, 0)) return ST_EXIT_FORT;
        return ST_NONE;
    }
    if (s->tuichi_wins) {
        int32_t routes[4 * MAX_N];
        if (board_king_routes(b, routes) >= 2) return ST_TUICHI;
    }
    return ST_NONE;
}

/* ------------------------------------------------------------------ make / unmake */

/* Board._remove: take the mover's enemies off ``squares``. */
static void remove_pieces(Board *b, const int16_t *squares, int count, int mover) {
    const Spec *s = b->spec;
    int n = s->n;
    int enemy = mover == ATTACKER ? DEFENDER : ATTACKER;
    int side = enemy == ATTACKER ? ATTACKERS : DEFENDERS;
    uint64_t h = b->hash;
    for (int k = 0; k < count; k++) {
        int sq = squares[k];
        int r = sq / n, f = sq % n;
        b->cells[sq] = EMPTY;
        b->occ_rows[r] ^= 1u << f;
        b->occ_cols[f] ^= 1u << r;
        b->side_rows[side][r] ^= 1u << f;
        b->side_cols[side][f] ^= 1u << r;
        h ^= s->zobrist[enemy][sq];
    }
    b->men[side] -= count;
    b->hash = h;
}

/* Board.make: play a legal move; returns how it ended the game (ST_NONE: it goes on). */
int board_make(Board *b, int32_t move) {
    const Spec *s = b->spec;
    int n = s->n;
    int origin = move >> MOVE_SHIFT, target = move & TARGET_MASK;
    int piece = b->cells[origin];
    Frame *frame = &b->stack[b->sp++];
    b->cells[origin] = EMPTY;
    b->cells[target] = (uint8_t)piece;
    int ro = origin / n, fo = origin % n, rt = target / n, ft = target % n;
    b->occ_rows[ro] ^= 1u << fo;
    b->occ_cols[fo] ^= 1u << ro;
    b->occ_rows[rt] ^= 1u << ft;
    b->occ_cols[ft] ^= 1u << rt;
    frame->prev_hash = b->hash;
    b->hash ^= s->zobrist[piece][origin] ^ s->zobrist[piece][target] ^ s->zobrist_side;
    if (piece == KING) {
        b->king = target;
    } else {
        int side = piece == ATTACKER ? ATTACKERS : DEFENDERS;
        b->side_rows[side][ro] ^= 1u << fo;
        b->side_cols[side][fo] ^= 1u << ro;
        b->side_rows[side][rt] ^= 1u << ft;
        b->side_cols[side][ft] ^= 1u << rt;
    }
    int ncap = captures_by(b, piece, target, frame->caps);
    if (ncap) remove_pieces(b, frame->caps, ncap, piece);
    if (s->extra_captures) {
        int more = more_captures(b, piece, target, frame->caps + ncap);
        if (more) {
            remove_pieces(b, frame->caps + ncap, more, piece);
            ncap += more;
        }
    }
    int status = piece == ATTACKER ? after_attackers_move(b, target)
                                   : after_defenders_move(b, piece, target);
    frame->move = move;
    frame->piece = (uint8_t)piece;
    frame->ncap = (uint8_t)ncap;
    frame->prev_status = (uint8_t)b->status;
    b->status = status;
    b->turn ^= 1;
    return status;
}

/* Board.unmake */
void board_unmake(Board *b) {
    const Spec *s = b->spec;
    int n = s->n;
    Frame *frame = &b->stack[--b->sp];
    int origin = frame->move >> MOVE_SHIFT, target = frame->move & TARGET_MASK;
    int piece = frame->piece;
    b->cells[target] = EMPTY;
    b->cells[origin] = (uint8_t)piece;
    int ro = origin / n, fo = origin % n, rt = target / n, ft = target % n;
    b->occ_rows[ro] ^= 1u << fo;
    b->occ_cols[fo] ^= 1u << ro;
    b->occ_rows[rt] ^= 1u << ft;
    b->occ_cols[ft] ^= 1u << rt;
    if (piece == KING) {
        b->king = origin;
    } else {
        int side = piece == ATTACKER ? ATTACKERS : DEFENDERS;
        b->side_rows[side][ro] ^= 1u << fo;
        b->side_cols[side][fo] ^= 1u << ro;
        b->side_rows[side][rt] ^= 1u << ft;
        b->side_cols[side][ft] ^= 1u << rt;
    }
    if (frame->ncap) {
        int enemy = piece == ATTACKER ? DEFENDER : ATTACKER;
        int side = enemy == ATTACKER ? ATTACKERS : DEFENDERS;
        for (int k = 0; k < frame->ncap; k++) {
            int sq = frame->caps[k];
            int r = sq / n, f = sq % n;
            b->cells[sq] = (uint8_t)enemy;
            b->occ_rows[r] ^= 1u << f;
            b->occ_cols[f] ^= 1u << r;
            b->side_rows[side][r] ^= 1u << f;
            b->side_cols[side][f] ^= 1u << r;
        }
        b->men[side] += frame->ncap;
    }
    b->hash = frame->prev_hash;
    b->status = frame->prev_status;
    b->turn ^= 1;
}

/* Board.would_capture */
int board_would_capture(Board *b, int32_t move) {
    board_make(b, move);
    int result = b->stack[b->sp - 1].ncap > 0;
    board_unmake(b);
    return result;
}

/* Board.captures_by, for callers outside this file */
int board_captures_by(const Board *b, int piece, int target, int16_t *out) {
    return captures_by(b, piece, target, out);
}

/* Board.pass_turn: the other side to move, the position unchanged (turn and hash). */
void board_pass_turn(Board *b) {
    b->turn ^= 1;
    b->hash ^= b->spec->zobrist_side;
}

/* The moves of the side to move that win at once (bot/ai/puzzles/proof.py, _naive_wins: play
 * every move): each with the status its make returned, ST_NONE when it won by leaving the
 * other side no legal move. In Board.moves' order; returns how many. */
int board_winning_moves(Board *b, int32_t *moves, int32_t *statuses) {
    if (b->status) return 0;
    int32_t all[MAX_MOVES];
    int count = board_moves(b, all), found = 0;
    for (int k = 0; k < count; k++) {
        int status = board_make(b, all[k]);
        int won = status != ST_NONE || !board_has_moves(b);
        board_unmake(b);
        if (won) {
            moves[found] = all[k];
            statuses[found++] = status;
        }
    }
    return found;
}

/* ------------------------------------------------------------------ king capture moves */

/* GroupRules._last_liberty */
static int last_liberty(const Board *b) {
    const Spec *s = b->spec;
    const uint8_t *cells = b->cells;
    uint8_t in_group[MAX_SQ];
    memset(in_group, 0, (size_t)s->area);
    int16_t frontier[MAX_SQ];
    int top = 0, free_square = -1;
    in_group[b->king] = 1;
    frontier[top++] = (int16_t)b->king;
    while (top) {
        int sq = frontier[--top];
        for (int k = 0; k < s->nb_count[sq]; k++) {
            int nb = s->nb[sq][k];
            int piece = cells[nb];
            if (piece == DEFENDER) {
                if (!in_group[nb]) {
                    in_group[nb] = 1;
                    frontier[top++] = (int16_t)nb;
                }
            } else if (piece == EMPTY && !s->closes_ring[nb] && nb != free_square) {
                if (free_square >= 0) return -1;
                free_square = nb;
            }
        }
    }
    return free_square;
}

/* Board.king_capturing_moves (Rules.king_capturing_moves, GroupRules's for its family) */
int board_king_capturing_moves(Board *b, int32_t *out) {
    const Spec *s = b->spec;
    if (b->king < 0 || b->status) return 0;
    int count = 0;
    if (s->family == FAMILY_GROUP) {
        int liberty = last_liberty(b);
        if (liberty < 0) return 0;
        int32_t candidates[4];
        int found = board_attackers_reaching(b, liberty, candidates);
        for (int k = 0; k < found; k++) {
            int status = board_make(b, candidates[k]);
            board_unmake(b);
            if (status == ST_KING_CAPTURED || status == ST_GROUP_CAPTURED) out[count++] = candidates[k];
        }
        return count;
    }
    int king = b->king;
    for (int k = 0; k < s->nb_count[king]; k++) {
        int target = s->nb[king][k];
        if (b->cells[target] == EMPTY && ring_closed(b, target))
            count += board_attackers_reaching(b, target, out + count);
    }
    return count;
}

/* ------------------------------------------------------------------ perft */

/* Board.perft */
int64_t board_perft(Board *b, int depth) {
    if (depth <= 0) return 1;
    if (b->status) return 0;
    if (depth == 1) return board_count_moves(b);
    int32_t moves[MAX_MOVES];
    int count = board_moves(b, moves);
    int64_t total = 0;
    if (depth == 2) {
        for (int k = 0; k < count; k++) {
            if (board_make(b, moves[k]) == ST_NONE) total += board_count_moves(b);
            board_unmake(b);
        }
        return total;
    }
    for (int k = 0; k < count; k++) {
        board_make(b, moves[k]);
        total += board_perft(b, depth - 1);
        board_unmake(b);
    }
    return total;
}

/* Board.perft_captures */
void board_perft_captures(Board *b, int depth, int64_t *leaves, int64_t *captures) {
    if (depth <= 0) {
        *leaves += 1;
        return;
    }
    if (b->status) return;
    int32_t moves[MAX_MOVES];
    int count = board_moves(b, moves);
    if (depth == 1) {
        const Spec *s = b->spec;
        int16_t found[MAX_CAPTURES];
        *leaves += count;
        for (int k = 0; k < count; k++) {
            int target = moves[k] & TARGET_MASK;
            if (s->extra_captures && s->edge_index_count[target])
                *captures += board_would_capture(b, moves[k]);
            else
                *captures += captures_by(b, b->cells[moves[k] >> MOVE_SHIFT], target, found) > 0;
        }
        return;
    }
    for (int k = 0; k < count; k++) {
        board_make(b, moves[k]);
        board_perft_captures(b, depth - 1, leaves, captures);
        board_unmake(b);
    }
}

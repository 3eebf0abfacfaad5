/* The fast core's search. Each function mirrors the Python method named in its comment, in
 * the order it looks at moves and squares, so that both visit the same nodes. See search.h. */
#include "search.h"

#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

enum { EXACT = 0, LOWER = 1, UPPER = 2 };
#define HASH_BONUS (1LL << 30)
#define CAPTURE_BONUS (1LL << 26)
#define KILLER_BONUS (1LL << 24)
#define KING_BONUS (1LL << 22)

/* ------------------------------------------------------------------ tables */

static inline size_t slot_of(uint64_t key, size_t capacity) {
    return (size_t)(key ^ (key >> 29)) & (capacity - 1);
}

Entry *table_find(const Table *t, uint64_t key) {
    if (!t->capacity) return NULL;
    size_t mask = t->capacity - 1;
    for (size_t i = slot_of(key, t->capacity);; i = (i + 1) & mask) {
        Entry *e = &t->entries[i];
        if (!e->used) return NULL;
        if (e->key == key) return e;
    }
}

#define HUGE_PAGE ((size_t)1 << 21)

/* ``bytes`` of zeroed memory for what a search reads all over (its table, its caches), in huge
 * pages where the system gives them: an 11x11 review's table grows past 10 MB, and with small
 * pages most of its reads also missed the processor's cache of pages (each miss a walk of the
 * page tables). Freed by free(). */
void *search_memory(size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= HUGE_PAGE / 2) {
        size_t whole = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        void *memory = NULL;
        if (posix_memalign(&memory, HUGE_PAGE, whole)) return NULL;
        madvise(memory, whole, MADV_HUGEPAGE); /* a hint: small pages work as well, slower */
        memset(memory, 0, bytes);
        return memory;
    }
#endif
    return calloc(1, bytes);
}

static int table_grow(Table *t) {
    size_t capacity = t->capacity ? t->capacity * 2 : 1 << 16;
    Entry *entries = search_memory(capacity * sizeof(Entry));
    if (!entries) return -1;
    for (size_t i = 0; i < t->capacity; i++) {
        Entry *old = &t->entries[i];
        if (!old->used) continue;
        size_t j = slot_of(old->key, capacity);
        while (entries[j].used) j = (j + 1) & (capacity - 1);
        entries[j] = *old;
    }
    free(t->entries);
    t->entries = entries;
    t->capacity = capacity;
    return 0;
}

/* Searcher._store's dict assignment: kept unless an entry searched deeper is there. */
int table_store(Table *t, uint64_t key, int depth, int flag, int score, int move) {
    if ((t->count + 1) * 2 > t->capacity && table_grow(t)) return -1;
    size_t mask = t->capacity - 1;
    size_t i = slot_of(key, t->capacity);
    while (t->entries[i].used && t->entries[i].key != key) i = (i + 1) & mask;
    Entry *e = &t->entries[i];
    if (e->used && e->depth > depth) return 0;
    if (!e->used) t->count++;
    e->key = key;
    e->depth = (int16_t)depth;
    e->flag = (uint8_t)flag;
    e->score = score;
    e->move = move;
    e->used = 1;
    return 0;
}

void search_prepare(Search *s) {
    const Spec *sp = &s->spec;
    memset(s->hostile_rows, 0, sizeof(s->hostile_rows));
    memset(s->barred_rows, 0, sizeof(s->barred_rows));
    memset(s->barred_cols, 0, sizeof(s->barred_cols));
    memset(s->route_rows, 0, sizeof(s->route_rows));
    memset(s->route_cols, 0, sizeof(s->route_cols));
    for (int sq = 0; sq < sp->area; sq++) {
        int rank = sq / sp->n, file = sq % sp->n;
        uint32_t bit = 1u << file, file_bit = 1u << rank;
        if (sp->hostile_def[sq]) s->hostile_rows[ATTACKERS][rank] |= bit;
        if (sp->hostile_att[sq]) s->hostile_rows[DEFENDERS][rank] |= bit;
        if (sp->king_barred[sq]) {
            s->barred_rows[rank] |= bit;
            s->barred_cols[file] |= file_bit;
        }
        if (s->rays.count[sq]) {
            s->route_rows[rank] |= bit;
            s->route_cols[file] |= file_bit;
        }
    }
}

void table_clear(Table *t) {
    free(t->entries);
    t->entries = NULL;
    t->capacity = 0;
    t->count = 0;
}

int keyset_fill(KeySet *set, const uint64_t *keys, size_t count) {
    size_t capacity = 16;
    while (capacity < 2 * count + 1) capacity *= 2;
    uint64_t *slots = calloc(capacity + 1, sizeof(uint64_t));
    if (!slots) return -1;
    free(set->keys);
    set->keys = slots;
    set->capacity = capacity;
    /* Slot ``capacity`` says whether key 0 is in the set (0 marks empty slots). */
    for (size_t k = 0; k < count; k++) {
        uint64_t key = keys[k];
        if (!key) {
            slots[capacity] = 1;
            continue;
        }
        size_t i = slot_of(key, capacity);
        while (slots[i] && slots[i] != key) i = (i + 1) & (capacity - 1);
        slots[i] = key;
    }
    return 0;
}

static inline int keyset_has(const KeySet *set, uint64_t key) {
    if (!set->capacity) return 0;
    if (!key) return set->keys[set->capacity] != 0;
    size_t mask = set->capacity - 1;
    for (size_t i = slot_of(key, set->capacity);; i = (i + 1) & mask) {
        if (!set->keys[i]) return 0;
        if (set->keys[i] == key) return 1;
    }
}

/* Searcher.path: the positions on the line being searched. */
static inline int on_path(const Search *s, uint64_t key) {
    if (!s->path_filter[key & 1023]) return 0;
    for (int k = 0; k < s->path_length; k++)
        if (s->path[k] == key) return 1;
    return 0;
}
static inline void path_push(Search *s, uint64_t key) {
    s->path[s->path_length++] = key;
    s->path_filter[key & 1023]++;
}
static inline void path_pop(Search *s) {
    uint64_t key = s->path[--s->path_length];
    s->path_filter[key & 1023]--;
}

/* Searcher._check, every 1,024 nodes. */
static inline int stopped(Search *s) {
    if (s->aborted) return 1;
    if (s->nodes & 1023) return 0;
    PyObject *result = PyObject_CallNoArgs(s->check);
    if (!result) {
        s->aborted = 2;
        return 1;
    }
    int truth = PyObject_IsTrue(result);
    Py_DECREF(result);
    if (truth) s->aborted = truth < 0 ? 2 : 1;
    return s->aborted != 0;
}

/* ------------------------------------------------------------------ tactics */

static inline uint32_t ray_line(const Board *b, const EscapeRays *r, int sq, int k) {
    return r->is_file[sq][k] ? b->occ_cols[r->line[sq][k]] : b->occ_rows[r->line[sq][k]];
}

/* KingTactics.open_rays: indices into the rays of the king's square. */
static int open_rays(const Search *s, int *out) {
    const Board *b = &s->board;
    int king = b->king, count = 0;
    if (king < 0) return 0;
    for (int k = 0; k < s->rays.count[king]; k++)
        if (!(ray_line(b, &s->rays, king, k) & s->rays.mask[king][k])) out[count++] = k;
    return count;
}

/* KingTactics.has_route */
static int has_route(const Search *s) {
    const Board *b = &s->board;
    int king = b->king;
    if (king < 0) return 0;
    for (int k = 0; k < s->rays.count[king]; k++)
        if (!(ray_line(b, &s->rays, king, k) & s->rays.mask[king][k])) return 1;
    return 0;
}

/* KingTactics.blocking_moves: the side to move's moves that land on the king's rays. */
static int blocking_moves(Search *s, const int *rays, int ray_count, int32_t *out) {
    const Board *b = &s->board;
    int king = b->king;
    uint8_t on_ray[MAX_SQ];
    memset(on_ray, 0, (size_t)s->spec.area);
    for (int k = 0; k < ray_count; k++)
        for (int i = 0; i < s->rays.length[king][rays[k]]; i++)
            on_ray[s->rays.squares[king][rays[k]][i]] = 1;
    int32_t moves[MAX_MOVES];
    int count = board_moves(b, moves), found = 0;
    for (int k = 0; k < count; k++)
        if (on_ray[moves[k] & TARGET_MASK]) out[found++] = moves[k];
    return found;
}

/* Evaluator.king_targets */
static int king_targets(const Board *b, int16_t *out) {
    const Spec *sp = b->spec;
    int king = b->king, count = 0;
    if (king < 0) return 0;
    for (int r = 0; r < sp->ray_count[king]; r++)
        for (int k = 0; k < sp->ray_len[king][r]; k++) {
            int sq = sp->ray[king][r][k];
            if (b->cells[sq] || sp->king_barred[sq]) break;
            out[count++] = (int16_t)sq;
        }
    return count;
}

/* How many of the escape rays from ``sq`` are clear (open_routes in geometry.py). */
static inline int clear_rays(const Board *b, const EscapeRays *r, int sq) {
    int count = 0;
    for (int k = 0; k < r->count[sq]; k++)
        if (!(ray_line(b, r, sq, k) & r->mask[sq][k])) count++;
    return count;
}

static inline void lift_king(Board *b) {
    int n = b->spec->n, king = b->king;
    b->occ_rows[king / n] ^= 1u << (king % n);
    b->occ_cols[king % n] ^= 1u << (king / n);
}

/* Evaluator.threats: king targets from which he would have open routes, with their count. */
static int threats(Search *s, const int16_t *targets, int count, int16_t *squares, int *routes) {
    Board *b = &s->board;
    int found = 0;
    lift_king(b); /* the king leaves his square: rays through it see it empty */
    for (int k = 0; k < count; k++) {
        int open = clear_rays(b, &s->rays, targets[k]);
        if (open) {
            squares[found] = targets[k];
            routes[found++] = open;
        }
    }
    lift_king(b);
    return found;
}

/* The squares of ``line`` (a rank's or a file's bits) that a piece at ``at`` slides over
 * before the first of ``blocked``, both ways (``at`` aside). */
static inline uint32_t slide(uint32_t blocked, int at, int n) {
    uint32_t above = ~((2u << at) - 1) & ((1u << n) - 1), below = (1u << at) - 1;
    uint32_t stop = blocked & above;
    uint32_t run = (stop ? (stop & -stop) - 1 : (1u << n) - 1) & above;
    stop = blocked & below;
    run |= stop ? below & ~((2u << (31 - __builtin_clz(stop))) - 1) : below;
    return run;
}

/* Evaluator.third_move_route: whether a square the king reaches from one of his ``targets``
 * (sliding over the empty squares and his own, up to a square barred to him) has an open
 * route, the targets and his square aside (the threats were read on the targets). The Python
 * walks the rays square by square; the answer depends on the set of squares only, found here
 * a rank and a file at a time. */
static int third_move_route(Search *s, const int16_t *targets, int count) {
    Board *b = &s->board;
    const Spec *sp = b->spec;
    int king = b->king, n = sp->n, kr = king / n, kf = king % n;
    uint32_t rows[MAX_N] = {0}, cols[MAX_N] = {0}, seen_rows[MAX_N] = {0}, seen_cols[MAX_N] = {0};
    seen_rows[kr] |= 1u << kf;
    seen_cols[kf] |= 1u << kr;
    for (int t = 0; t < count; t++) {
        int r = targets[t] / n, f = targets[t] % n;
        seen_rows[r] |= 1u << f;
        seen_cols[f] |= 1u << r;
    }
    for (int t = 0; t < count; t++) {
        int r = targets[t] / n, f = targets[t] % n;
        uint32_t on_rank = b->occ_rows[r] & ~(r == kr ? 1u << kf : 0u);
        uint32_t on_file = b->occ_cols[f] & ~(f == kf ? 1u << kr : 0u);
        rows[r] |= slide(on_rank | s->barred_rows[r], f, n);
        cols[f] |= slide(on_file | s->barred_cols[f], r, n);
    }
    int found = 0;
    lift_king(b); /* his square is empty for the routes too */
    for (int line = 0; line < n && !found; line++) {
        for (uint32_t bits = rows[line] & s->route_rows[line] & ~seen_rows[line]; bits && !found;
             bits &= bits - 1)
            found = clear_rays(b, &s->rays, line * n + __builtin_ctz(bits)) > 0;
        for (uint32_t bits = cols[line] & s->route_cols[line] & ~seen_cols[line]; bits && !found;
             bits &= bits - 1)
            found = clear_rays(b, &s->rays, __builtin_ctz(bits) * n + line) > 0;
    }
    lift_king(b);
    return found;
}

/* KingTactics.fork_squares, as the stoppers of each fork: its squares go to ``stoppers``
 * (a mask by square) for the forks that Searcher._fork_stoppers keeps. Returns -1 when the king
 * has no fork, else how many forks were kept. */
static int fork_stoppers(Search *s, uint8_t *stoppers) {
    Board *b = &s->board;
    const Spec *sp = b->spec;
    int king = b->king;
    if (king < 0) return -1;
    int16_t fork_square[4 * MAX_N];
    uint8_t fork_mask[4 * MAX_N][MAX_SQ / 8 + 1];
    int forks = 0;
    lift_king(b);
    for (int r = 0; r < sp->ray_count[king]; r++) {
        int path_length = 0;
        int16_t path[MAX_N];
        for (int k = 0; k < sp->ray_len[king][r]; k++) {
            int sq = sp->ray[king][r][k];
            if (b->cells[sq] || sp->king_barred[sq]) break;
            path[path_length++] = (int16_t)sq;
            int open[4], routes = 0;
            for (int e = 0; e < s->rays.count[sq]; e++)
                if (!(ray_line(b, &s->rays, sq, e) & s->rays.mask[sq][e])) open[routes++] = e;
            if (routes >= 2) {
                uint8_t *mask = fork_mask[forks];
                memset(mask, 0, sizeof(fork_mask[0]));
                for (int p = 0; p < path_length; p++) mask[path[p] >> 3] |= 1 << (path[p] & 7);
                for (int e = 0; e < routes; e++)
                    for (int i = 0; i < s->rays.length[sq][open[e]]; i++) {
                        int stop = s->rays.squares[sq][open[e]][i];
                        mask[stop >> 3] |= 1 << (stop & 7);
                    }
                fork_square[forks++] = (int16_t)sq;
            }
        }
    }
    lift_king(b);
    if (!forks) return -1;
    int kept = 0;
    int32_t origin = (int32_t)king << MOVE_SHIFT;
    memset(stoppers, 0, (size_t)sp->area);
    for (int f = 0; f < forks; f++) {
        /* The king's move is played out of turn: make() does not look at whose turn it is. */
        int status = board_make(b, origin | fork_square[f]);
        int32_t captures[4 * 4 * MAX_N];
        int safe = !status && !board_king_capturing_moves(b, captures);
        board_unmake(b);
        if (safe || status) {
            kept++;
            for (int sq = 0; sq < sp->area; sq++)
                if (fork_mask[f][sq >> 3] & (1 << (sq & 7))) stoppers[sq] = 1;
        }
    }
    return kept ? kept : -1;
}

/* ------------------------------------------------------------------ exit forts */

#define FORT_SIZE 6

/* KingTactics._flood: ``start`` and the empty squares reached from it through empty squares
 * other than ``plug`` go to ``out``, in the order a breadth-first flood reaches them, the first
 * ``limit`` only; returns how many. */
static int flood(const Board *b, int start, int plug, int limit, int16_t *out) {
    const Spec *sp = b->spec;
    int count = 0;
    out[count++] = (int16_t)start;
    for (int index = 0; index < count; index++) {
        int sq = out[index];
        for (int k = 0; k < sp->nb_count[sq]; k++) {
            int nb = sp->nb[sq][k];
            if (nb == plug || b->cells[nb] != EMPTY) continue;
            int known = 0;
            for (int j = 0; j < count && !known; j++) known = out[j] == nb;
            if (known) continue;
            out[count++] = (int16_t)nb;
            if (count == limit) return count;
        }
    }
    return count;
}

/* KingTactics._walled_in: the flood into ``out``; returns how many squares, or -1 when more
 * than FORT_SIZE. */
static int walled_in(const Board *b, int start, int plug, int16_t *out) {
    int count = flood(b, start, plug, FORT_SIZE + 1, out);
    return count > FORT_SIZE ? -1 : count;
}

/* KingTactics.fort_candidates: the defenders' moves that might build an exit fort now,
 * whoever is to move. */
static int fort_candidates(Board *b, int32_t *out) {
    const Spec *sp = b->spec;
    int king = b->king, area = sp->area, found = 0;
    int turn = b->turn;
    int32_t moves[MAX_MOVES];
    b->turn = DEFENDERS;
    if (!sp->is_edge[king]) {
        /* His moves onto the edge: off it, only the last square of a ray can be on it, and he
         * reaches it when nothing stops him before. */
        int32_t origin = (int32_t)king << MOVE_SHIFT;
        for (int r = 0; r < sp->ray_count[king]; r++) {
            const int16_t *ray = sp->ray[king][r];
            int length = sp->ray_len[king][r], k = 0;
            while (k < length && !b->cells[ray[k]] && !sp->king_barred[ray[k]]) k++;
            if (k && k == length && sp->is_edge[ray[k - 1]]) out[found++] = origin | ray[k - 1];
        }
        b->turn = turn;
        return found;
    }
    int16_t region[FORT_SIZE + 1];
    int size = walled_in(b, king, -1, region);
    uint8_t near[MAX_SQ], from[MAX_SQ];
    memset(near, 0, (size_t)area);
    memset(from, 0, (size_t)area);
    if (size > 0) {
        for (int k = 0; k < size; k++) near[region[k]] = 1;
        for (int ring = 1; ring <= 2; ring++) {
            for (int sq = 0; sq < area; sq++)
                if (near[sq] == ring)
                    for (int k = 0; k < sp->nb_count[sq]; k++)
                        if (!near[sp->nb[sq][k]]) near[sp->nb[sq][k]] = (uint8_t)(ring + 1);
        }
        for (int r = 0; r < size; r++)
            for (int k = 0; k < sp->nb_count[region[r]]; k++) {
                int nb = sp->nb[region[r]][k];
                if (b->cells[nb] != EMPTY) from[nb] = 1;
            }
    } else {
        /* near marks the plugs here: the gaps that would wall the king in with few squares.
         * Only one of the first squares a flood from the king reaches can be one (walled_in
         * left them in ``region``). */
        int16_t scratch[FORT_SIZE + 1];
        int plugs = 0;
        for (int k = 1; k <= FORT_SIZE; k++)
            if (walled_in(b, king, region[k], scratch) > 0) {
                near[region[k]] = 1;
                plugs++;
            }
        if (!plugs) {
            b->turn = turn;
            return 0;
        }
    }
    int count = board_moves(b, moves);
    for (int k = 0; k < count; k++)
        if (near[moves[k] & TARGET_MASK] || from[moves[k] >> MOVE_SHIFT]) out[found++] = moves[k];
    b->turn = turn;
    return found;
}

/* KingTactics.fort_wins: how many of the defenders' moves would win now by an exit fort,
 * whoever is to move. Without ``stoppers`` it stops at the first; with it, the squares where an
 * attacker stops one (the fort's and those its move crosses) are marked there. */
static int fort_wins(Search *s, uint8_t *stoppers) {
    Board *b = &s->board;
    const Spec *sp = b->spec;
    if (!s->forts || b->king < 0) return 0;
    int32_t candidates[MAX_MOVES];
    int count = fort_candidates(b, candidates), wins = 0, n = sp->n;
    uint8_t fort[MAX_SQ];
    if (stoppers) memset(stoppers, 0, (size_t)sp->area);
    for (int k = 0; k < count; k++) {
        int32_t move = candidates[k];
        int status = board_make(b, move);
        if (status == ST_EXIT_FORT) {
            wins++;
            if (stoppers) {
                board_exit_fort(b, fort);
                for (int sq = 0; sq < sp->area; sq++)
                    if (fort[sq]) stoppers[sq] = 1;
                int origin = move >> MOVE_SHIFT, target = move & TARGET_MASK;
                int step = (target > origin ? 1 : -1) * (origin / n == target / n ? 1 : n);
                for (int sq = origin + step; sq != target + step; sq += step) stoppers[sq] = 1;
            }
        }
        board_unmake(b);
        if (wins && !stoppers) break;
    }
    return wins;
}

/* ------------------------------------------------------------------ encirclement */

/* KingTactics._path_out: a shortest path from the king to the edge through anything but
 * attackers, the king first, into ``path``; returns its length, or 0 when there is none. */
static int path_out(const Board *b, int16_t *path) {
    const Spec *sp = b->spec;
    const uint8_t *cells = b->cells;
    int king = b->king;
    int16_t parent[MAX_SQ], queue[MAX_SQ];
    uint8_t seen[MAX_SQ];
    memset(seen, 0, (size_t)sp->area);
    seen[king] = 1;
    parent[king] = (int16_t)king;
    int head = 0, tail = 0;
    queue[tail++] = (int16_t)king;
    while (head < tail) {
        int sq = queue[head++];
        for (int k = 0; k < sp->nb_count[sq]; k++) {
            int nb = sp->nb[sq][k];
            if (seen[nb] || cells[nb] == ATTACKER) continue;
            seen[nb] = 1;
            parent[nb] = (int16_t)sq;
            if (sp->is_edge[nb]) {
                int length = 0;
                int16_t back[MAX_SQ];
                for (int at = nb; at != king; at = parent[at]) back[length++] = (int16_t)at;
                back[length++] = (int16_t)king;
                for (int i = 0; i < length; i++) path[i] = back[length - 1 - i];
                return length;
            }
            queue[tail++] = (int16_t)nb;
        }
    }
    return 0;
}

/* KingTactics._second_path_out: whether a second path out shares no empty square with
 * ``path`` (an augmenting path of the flow; state 2 sq is a square's entry, 2 sq + 1 its exit).
 * ``any``: no square at all, defenders' included, which depends on the attackers' squares only;
 * then ``used`` (when given) receives the squares of both paths (the path and the augmenting
 * one, whose squares hold two separate paths out). */
static int second_path_out(const Board *b, const int16_t *path, int length, int any,
                           uint64_t *used) {
    const Spec *sp = b->spec;
    const uint8_t *cells = b->cells;
    int16_t before[MAX_SQ], parent[2 * MAX_SQ];
    uint8_t on_path[MAX_SQ], full[MAX_SQ], seen[2 * MAX_SQ];
    memset(on_path, 0, (size_t)sp->area);
    memset(full, 0, (size_t)sp->area);
    memset(seen, 0, (size_t)(2 * sp->area));
    for (int i = 1; i < length; i++) {
        on_path[path[i]] = 1;
        before[path[i]] = path[i - 1];
        full[path[i]] = any || cells[path[i]] == EMPTY;
    }
    int16_t queue[2 * MAX_SQ];
    int head = 0, tail = 0;
    int start = 2 * b->king + 1;
    seen[start] = 1;
    parent[start] = -1;
    queue[tail++] = (int16_t)start;
    while (head < tail) {
        int state = queue[head++], sq = state >> 1;
        int following[6], count = 0;
        if (state & 1) {
            if (sp->is_edge[sq]) {
                if (used) {
                    for (int i = 0; i < length; i++) used[path[i] >> 6] |= 1ULL << (path[i] & 63);
                    for (int at = state; at >= 0; at = parent[at])
                        used[at >> 7] |= 1ULL << ((at >> 1) & 63);
                }
                return 1;
            }
            for (int k = 0; k < sp->nb_count[sq]; k++)
                if (cells[sp->nb[sq][k]] != ATTACKER) following[count++] = 2 * sp->nb[sq][k];
            if (on_path[sq]) following[count++] = 2 * sq; /* back through a square it uses */
        } else {
            if (!full[sq]) following[count++] = 2 * sq + 1;
            if (on_path[sq]) following[count++] = 2 * before[sq] + 1; /* back along it */
        }
        for (int k = 0; k < count; k++)
            if (!seen[following[k]]) {
                seen[following[k]] = 1;
                parent[following[k]] = (int16_t)state;
                queue[tail++] = (int16_t)following[k];
            }
    }
    return 0;
}

/* The attackers' squares (by rank) and the king's, as a key of Search.ways_out. */
static inline uint64_t layout_key(const uint32_t *rows, int n, int king) {
    uint64_t key = (uint64_t)king + 1;
    for (int r = 0; r < n; r++) key = (key ^ rows[r]) * 0x9E3779B97F4A7C15ULL;
    return key | 1;
}

/* The board's two separate ways out (Search.ways_out), found now or before: the entry, whose
 * ``none`` says that there are not two. */
static const WaysOut *ways_out(Search *s, uint64_t key) {
    WaysOut *slot = &s->ways_out[(key >> 40) & ((1 << WAYS_OUT_BITS) - 1)];
    if (slot->key == key) return slot;
    const Board *b = &s->board;
    int16_t path[MAX_SQ];
    int length = path_out(b, path);
    memset(slot->squares, 0, sizeof(slot->squares));
    slot->key = key;
    slot->none = !length || !second_path_out(b, path, length, 1, slot->squares);
    return slot;
}

/* Whether the attackers' squares alone leave the king (off the edge, with ``free`` of his four
 * straight lines clear of attackers, at most one) two ways out that share no square, found
 * without the flow in most positions: a square beside him that no attacker holds, from which a
 * line at right angles to his step there is clear of attackers (or which is on the edge), is a
 * way out. Such a way shares no square with his own clear line unless it starts on it, nor with
 * one from the square on his other side, so it suffices beside a clear line, and on both sides
 * without one. A sufficient test only: when it fails the flow decides (ways_out). */
static int beside_ways_out(const Board *b, int free) {
    const Spec *sp = b->spec;
    int n = sp->n, king = b->king, rank = king / n, file = king % n;
    const uint32_t *rows = b->side_rows[ATTACKERS], *cols = b->side_cols[ATTACKERS];
    uint32_t row = rows[rank], col = cols[file];
    /* The king's straight lines up (to rank 0), down, left (to file 0), right. */
    int line[4] = {!(col & ((1u << rank) - 1)), !(col >> (rank + 1)),
                   !(row & ((1u << file) - 1)), !(row >> (file + 1))};
    int beside[4];
    for (int d = 0; d < 2; d++) { /* the squares above and below him: lines along their rank */
        int r = d ? rank + 1 : rank - 1;
        uint32_t along = rows[r];
        int out = r == 0 || r == n - 1 || !(along & ((1u << file) - 1)) || !(along >> (file + 1));
        beside[d] = !(along >> file & 1) && out;
    }
    for (int d = 0; d < 2; d++) { /* left and right of him: lines along their file */
        int f = d ? file + 1 : file - 1;
        uint32_t along = cols[f];
        int out = f == 0 || f == n - 1 || !(along & ((1u << rank) - 1)) || !(along >> (rank + 1));
        beside[2 + d] = !(along >> rank & 1) && out;
    }
    if (free == 1) {
        for (int d = 0; d < 4; d++)
            if (!line[d] && beside[d]) return 1;
        return 0;
    }
    return (beside[0] && beside[1]) || (beside[2] && beside[3]);
}

/* KingTactics.encirclement_candidates: the attackers' moves that might encircle now.
 *
 * Before the flow the Python reads, a cheaper one that gives no other answer: two paths out
 * that share no square at all (the defenders' squares neither) exist by the attackers' and the
 * king's squares alone, and they are remembered by those. A move keeps them unless it takes
 * one of their squares or moves the king, so they are looked for in the position before the
 * last move (which its other moves share) before this one. */
static int encirclement_candidates(Search *s, int32_t *out) {
    Board *b = &s->board;
    const Spec *sp = b->spec;
    int king = b->king, n = sp->n;
    if (sp->is_edge[king]) return 0;
    int rank = king / n, file = king % n;
    uint32_t row = b->side_rows[ATTACKERS][rank], col = b->side_cols[ATTACKERS][file];
    int free = !(row >> (file + 1)) + !(row & ((1u << file) - 1)) + !(col >> (rank + 1)) +
               !(col & ((1u << rank) - 1));
    if (free >= 2) return 0; /* two straight lines out: two separate paths */
    if (beside_ways_out(b, free)) return 0;
    uint32_t rows[MAX_N];
    memcpy(rows, b->side_rows[ATTACKERS], sizeof(uint32_t) * (size_t)n);
    if (b->sp > 0 && b->stack[b->sp - 1].piece != KING) {
        const Frame *frame = &b->stack[b->sp - 1];
        int origin = frame->move >> MOVE_SHIFT, target = frame->move & TARGET_MASK;
        int taken = -1; /* the square the last move took, which a way out may have crossed */
        uint8_t *cells = b->cells;
        /* The attackers' squares before it (the search's own board, put back below). */
        if (frame->piece == ATTACKER) {
            rows[target / n] ^= 1u << (target % n);
            rows[origin / n] ^= 1u << (origin % n);
            cells[target] = EMPTY;
            cells[origin] = ATTACKER;
            taken = target;
        } else {
            for (int k = 0; k < frame->ncap; k++) { /* the attackers it took */
                rows[frame->caps[k] / n] |= 1u << (frame->caps[k] % n);
                cells[frame->caps[k]] = ATTACKER;
            }
        }
        const WaysOut *before = ways_out(s, layout_key(rows, n, king));
        int kept = !before->none && (taken < 0 || !(before->squares[taken >> 6] >> (taken & 63) & 1));
        if (frame->piece == ATTACKER) {
            cells[origin] = EMPTY;
            cells[target] = ATTACKER;
        } else {
            for (int k = 0; k < frame->ncap; k++) cells[frame->caps[k]] = EMPTY;
        }
        if (kept) return 0;
        memcpy(rows, b->side_rows[ATTACKERS], sizeof(uint32_t) * (size_t)n);
    }
    if (!ways_out(s, layout_key(rows, n, king))->none) return 0;
    int16_t path[MAX_SQ];
    int length = path_out(b, path);
    if (!length) {
        int turn = b->turn;
        b->turn = ATTACKERS;
        int count = board_moves(b, out);
        b->turn = turn;
        return count;
    }
    if (second_path_out(b, path, length, 0, NULL)) return 0;
    int count = 0;
    for (int i = 1; i < length; i++)
        if (b->cells[path[i]] == EMPTY) count += board_attackers_reaching(b, path[i], out + count);
    return count;
}

/* KingTactics.encircling_moves: how many of the attackers' moves would win now by
 * encirclement, whoever is to move (stopping at the first when ``first``). */
static int encircling_moves(Search *s, int first) {
    Board *b = &s->board;
    if (!s->forts || b->king < 0) return 0;
    int32_t candidates[MAX_MOVES];
    int count = encirclement_candidates(s, candidates), found = 0;
    for (int k = 0; k < count; k++) {
        found += board_make(b, candidates[k]) == ST_ENCIRCLEMENT;
        board_unmake(b);
        if (found && first) break;
    }
    return found;
}

/* Searcher._cornered: the defenders (to move) have at most FEW_MOVES moves, or the attackers
 * threaten to encircle them. */
static int cornered(Search *s) {
    if (!board_has_more_moves(&s->board, FEW_MOVES)) return 1;
    return s->forts && encircling_moves(s, 1);
}

/* ------------------------------------------------------------------ evaluation */

static int evaluate_position(Search *s);

/* Evaluator.evaluate, with Searcher._evaluate's noise: from the cache when the position was
 * evaluated before (a finished game's position is not cached: its mobility counts nothing). */
int evaluate(Search *s) {
    const Board *b = &s->board;
    if (b->status) return evaluate_position(s);
    CachedEval *slot = &s->eval_cache[b->hash & ((1 << EVAL_CACHE_BITS) - 1)];
    if (slot->used && slot->key == b->hash) return slot->value;
    int value = evaluate_position(s);
    slot->key = b->hash;
    slot->value = value;
    slot->used = 1;
    return value;
}

static int evaluate_position(Search *s) {
    Board *b = &s->board;
    const Spec *sp = b->spec;
    const Evaluation *w = &s->eval;
    const uint8_t *cells = b->cells;
    int n = sp->n;
    int attackers = b->men[ATTACKERS], defenders = b->men[DEFENDERS];
    long score = (long)w->defender * defenders - (long)w->attacker * attackers;
    int king = b->king;
    if (king >= 0) {
        int16_t targets[4 * MAX_N], squares[4 * MAX_N];
        int routes[4 * MAX_N];
        int count = king_targets(b, targets);
        score += (long)w->king_mobility * count;
        int found = threats(s, targets, count, squares, routes);
        for (int k = 0; k < found; k++) score += routes[k] >= 2 ? w->fork_square : w->threat_square;
        score -= (long)w->king_distance * w->distance[king];
        if (w->king_moves) {
            int moves = found ? 2 : third_move_route(s, targets, count) ? 3 : 4;
            score -= (long)w->king_moves * moves;
        }
        int closed = 4 - sp->nb_count[king];
        for (int k = 0; k < sp->nb_count[king]; k++) {
            int sq = sp->nb[king][k];
            if (cells[sq] == ATTACKER || (cells[sq] == EMPTY && sp->closes_ring[sq])) closed++;
        }
        if (w->centre_strong && king != sp->throne) {
            /* Off the throne two attackers suffice: each one beside him is a real danger. */
            closed += closed > 0;
            if (closed > 4) closed = 4;
        }
        score -= w->king_closed[closed];
        int kr = king / n, kf = king % n, near = 0;
        int shift = kf - 2 > 0 ? kf - 2 : 0;
        int low = kr - 2 > 0 ? kr - 2 : 0, high = kr + 3 < n ? kr + 3 : n;
        for (int r = low; r < high; r++) near += popcount32(b->side_rows[ATTACKERS][r] >> shift & 31);
        score -= (long)w->attacker_near_king * near;
    }
    for (int k = 0; k < w->guard_count; k++) /* without a branch: they are hard to predict */
        score -= w->guard_value[k] & -(long)(cells[w->guard_square[k]] == ATTACKER);
    for (int k = 0; k < w->segment_count; k++)
        for (int i = 0; i < w->segment_length[k]; i++) {
            int piece = cells[w->segment[k][i]];
            if (piece) {
                if (piece == ATTACKER) score -= w->line_guard;
                break;
            }
        }
    if (w->mobility) {
        int counts[2]; /* count_moves() of each side, as if it were to move */
        board_count_both(b, counts);
        int mobility = counts[DEFENDERS] - counts[ATTACKERS];
        score += (long)w->mobility * mobility;
    }
    score -= w->offset;
    int value = (int)((b->turn == DEFENDERS ? score : -score) + w->tempo);
    if (s->noise) {
        uint64_t mixed = (b->hash ^ s->noise_key) * 0xFF51AFD7ED558CCDULL;
        value += (int)((mixed >> 33) % (uint64_t)(2 * s->noise + 1)) - s->noise;
    }
    return value;
}

/* ------------------------------------------------------------------ ordering */

/* A move and its ordering value in one int: value << 17 | move, so that comparing them
 * compares the values, then the moves, as Python's sort of (value, move) pairs does (values
 * are never negative; moves stay below 2 ** 17 on boards up to 11x11). */
typedef int64_t Scored;
#define SCORED_SHIFT 17

#define SCORED_MOVE(x) ((int32_t)((x) & ((1 << SCORED_SHIFT) - 1)))

/* What Searcher._order reads of a node to value its moves. */
typedef struct {
    const int64_t *history;
    int32_t hash_move, killer0, killer1;
    int king;
    uint64_t near_king[(MAX_SQ + 63) / 64]; /* the attackers' squares next to the king */
    /* The squares where a move gets the capture bonus, a rank at a time and by square. */
    uint32_t capture_rows[MAX_N];
    uint8_t captures_at[MAX_SQ];
} Orderer;

/* The squares where Searcher._order gives a move the capture bonus (it depends on the square
 * only), a rank at a time: an enemy next to the square, and beyond it a friend (the king too,
 * where he is armed) or a square hostile to the enemy. */
static void capture_squares(const Search *s, uint32_t *rows) {
    const Board *b = &s->board;
    const Spec *sp = b->spec;
    int n = sp->n, turn = b->turn;
    const uint32_t *victims = b->side_rows[turn == ATTACKERS ? DEFENDERS : ATTACKERS];
    uint32_t anvils[MAX_N] = {0}, board_mask = (1u << n) - 1;
    for (int rank = 0; rank < n; rank++)
        anvils[rank] = b->side_rows[turn][rank] | s->hostile_rows[turn][rank];
    if (turn == DEFENDERS && sp->king_armed && b->king >= 0)
        anvils[b->king / n] |= 1u << (b->king % n);
    for (int rank = 0; rank < n; rank++) {
        uint32_t found = (victims[rank] >> 1 & anvils[rank] >> 2) |
                         (victims[rank] << 1 & anvils[rank] << 2);
        if (rank + 2 < n) found |= victims[rank + 1] & anvils[rank + 2];
        if (rank >= 2) found |= victims[rank - 1] & anvils[rank - 2];
        rows[rank] = found & board_mask;
    }
}

static void orderer_init(Orderer *o, const Search *s, int32_t hash_move, int ply) {
    const Board *b = &s->board;
    const Spec *sp = b->spec;
    int turn = b->turn, n = sp->n;
    o->history = s->history[turn];
    o->hash_move = hash_move;
    o->killer0 = s->killers[ply][0];
    o->killer1 = s->killers[ply][1];
    o->king = b->king;
    memset(o->near_king, 0, sizeof(o->near_king));
    if (turn == ATTACKERS && b->king >= 0)
        for (int k = 0; k < sp->nb_count[b->king]; k++) {
            int square = sp->nb[b->king][k];
            o->near_king[square >> 6] |= 1ULL << (square & 63);
        }
    capture_squares(s, o->capture_rows);
    memset(o->captures_at, 0, (size_t)sp->area);
    for (int rank = 0; rank < n; rank++)
        for (uint32_t bits = o->capture_rows[rank]; bits; bits &= bits - 1)
            o->captures_at[rank * n + __builtin_ctz(bits)] = 1;
}

/* Whether a move landing on ``target`` gets the capture bonus. */
static inline int capture_square(const Orderer *o, int target) {
    return o->captures_at[target];
}

/* A move's place in Searcher._order: its value and the move, packed. */
static inline Scored move_value(const Search *s, Orderer *o, int32_t move) {
    int target = move & TARGET_MASK;
    int64_t value = o->history[history_index(s, move)];
    if (move == o->hash_move)
        value += HASH_BONUS;
    else if (move == o->killer0 || move == o->killer1)
        value += KILLER_BONUS;
    if (capture_square(o, target)) value += CAPTURE_BONUS;
    if ((o->near_king[target >> 6] >> (target & 63) & 1) ||
        (move >> MOVE_SHIFT) == o->king)
        value += KING_BONUS;
    return value << SCORED_SHIFT | move;
}

/* Searcher._order, scored; the moves are then taken best first (value, then move). */
static void order(Search *s, const int32_t *moves, int count, int32_t hash_move, int ply,
                  Scored *out) {
    Orderer o;
    orderer_init(&o, s, hash_move, ply);
    for (int k = 0; k < count; k++) out[k] = move_value(s, &o, moves[k]);
}

/* Sort scored moves best first (distinct keys, so any sort gives Python's order): quicksort
 * down to short runs, which insertion sort finishes. */
static void sort_scored(Scored *list, int count) {
    while (count > 16) {
        Scored a = list[0], b = list[count / 2], c = list[count - 1];
        Scored pivot = a > b ? (b > c ? b : (a > c ? c : a)) : (a > c ? a : (b > c ? c : b));
        int i = 0, j = count - 1;
        while (i <= j) {
            while (list[i] > pivot) i++;
            while (list[j] < pivot) j--;
            if (i <= j) {
                Scored swap = list[i];
                list[i++] = list[j];
                list[j--] = swap;
            }
        }
        /* recurse into the smaller part, loop on the larger */
        if (j + 1 < count - i) {
            sort_scored(list, j + 1);
            list += i;
            count -= i;
        } else {
            sort_scored(list + i, count - i);
            count = j + 1;
        }
    }
    for (int k = 1; k < count; k++) {
        Scored item = list[k];
        int j = k - 1;
        while (j >= 0 && list[j] < item) {
            list[j + 1] = list[j];
            j--;
        }
        list[j + 1] = item;
    }
}

#define PICKED_ONE_BY_ONE 3

/* The move at ``index`` in order. The first few are found by a pass each (a cut-off often
 * comes before the others are needed); asking for the next sorts the rest once. */
static inline int32_t pick(Scored *list, int index, int count) {
    if (index < PICKED_ONE_BY_ONE) {
        int best = index;
        for (int k = index + 1; k < count; k++)
            if (list[k] > list[best]) best = k;
        Scored chosen = list[best];
        list[best] = list[index];
        list[index] = chosen;
    } else if (index == PICKED_ONE_BY_ONE) {
        sort_scored(list + index, count - index);
    }
    return SCORED_MOVE(list[index]);
}

/* ------------------------------------------------------------------ quiescence */

static int quiesce(Search *s, int alpha, int beta, int ply, int qdepth);

/* The memory a node will read of its position's entries (the evaluation's cache, and in the
 * main search the table), asked for before the tactics that come first: on an 11x11 board most
 * nodes miss the caches, and the wait was a tenth of the search's time. */
static inline void prefetch_entries(const Search *s, uint64_t key, int table) {
    __builtin_prefetch(&s->eval_cache[key & ((1 << EVAL_CACHE_BITS) - 1)]);
    if (table && s->tt.capacity) __builtin_prefetch(&s->tt.entries[slot_of(key, s->tt.capacity)]);
}

/* The entries the position after ``move`` will read, asked for while the node is still busy
 * with the move before it (the position's own prefetch comes too late to hide the wait). The key
 * is the one the move makes without captures: a capture's prefetch is merely wasted. */
static inline void prefetch_after(const Search *s, int32_t move, int table) {
    const Board *b = &s->board;
    const Spec *sp = b->spec;
    int origin = move >> MOVE_SHIFT, target = move & TARGET_MASK, piece = b->cells[origin];
    uint64_t key = b->hash ^ sp->zobrist[piece][origin] ^ sp->zobrist[piece][target] ^
                   sp->zobrist_side;
    prefetch_entries(s, key, table);
}

/* Before the move at ``index`` of a node's ``list`` is searched: the entries of the move two
 * after it (a move's search may be too short to hide the wait for the next one's), once the
 * order is known that far (from the first sorted move on, see pick). */
static inline void prefetch_ahead(const Search *s, const Scored *list, int index, int count,
                                  int table) {
    if (index < PICKED_ONE_BY_ONE) return;
    if (index == PICKED_ONE_BY_ONE && index + 1 < count)
        prefetch_after(s, SCORED_MOVE(list[index + 1]), table);
    if (index + 2 < count) prefetch_after(s, SCORED_MOVE(list[index + 2]), table);
}


/* Searcher._answer_each */
static int answer_each(Search *s, const int32_t *moves, int count, int alpha, int beta, int ply,
                       int qdepth) {
    Board *b = &s->board;
    Scored list[MAX_MOVES];
    order(s, moves, count, 0, ply, list);
    int best = -INFINITY_SCORE;
    for (int k = 0; k < count; k++) {
        int32_t move = pick(list, k, count);
        prefetch_ahead(s, list, k, count, 0);
        int status = board_make(b, move);
        int score = status ? MATE - ply - 1 : -quiesce(s, -beta, -alpha, ply + 1, qdepth + 1);
        board_unmake(b);
        if (s->aborted) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) break;
            }
        }
    }
    return best;
}

/* Searcher._quiesce */
static int quiesce(Search *s, int alpha, int beta, int ply, int qdepth) {
    Board *b = &s->board;
    prefetch_entries(s, b->hash, 0);
    s->nodes++;
    if (stopped(s)) return 0;
    if (b->turn == DEFENDERS) {
        if (has_route(s)) return MATE - ply - 1;
        int stand = evaluate(s);
        if (!s->quiescence || qdepth >= MAX_QUIESCENCE)
            return fort_wins(s, NULL) ? MATE - ply - 1 : stand;
        if (qdepth == 0) {
            int32_t captures[4 * 4 * MAX_N];
            if (board_king_capturing_moves(b, captures) || cornered(s)) {
                /* The king can be taken next move, the defenders encircled, or they have too
                 * few moves to be sure of a safe one: standing pat would be a fantasy
                 * (Searcher._evasions). */
                if (fort_wins(s, NULL)) return MATE - ply - 1;
                int32_t moves[MAX_MOVES];
                int count = board_moves(b, moves);
                if (!count) return -(MATE - ply);
                return answer_each(s, moves, count, alpha, beta, ply, qdepth);
            }
        }
        /* An exit fort would win, which fails high as standing pat does: the costly search for
         * one is left for the nodes it can change. */
        if (stand >= beta) return stand;
        if (fort_wins(s, NULL)) return MATE - ply - 1;
        int best = stand;
        if (stand > alpha) alpha = stand;
        int king = b->king;
        if (king < 0) return best;
        int16_t targets[4 * MAX_N], squares[4 * MAX_N];
        int routes[4 * MAX_N];
        int count = king_targets(b, targets);
        int found = threats(s, targets, count, squares, routes);
        /* threats.sort(key=routes, reverse=True): stable, forks first */
        int16_t sorted_squares[4 * MAX_N];
        int sorted_routes[4 * MAX_N], placed = 0;
        for (int want = 4; want >= 1; want--)
            for (int k = 0; k < found; k++)
                if ((routes[k] >= 4 ? 4 : routes[k]) == want) {
                    sorted_squares[placed] = squares[k];
                    sorted_routes[placed++] = routes[k];
                }
        int32_t origin = (int32_t)king << MOVE_SHIFT;
        for (int k = 0; k < placed; k++) {
            /* Chains of single threats and blocks explode; beyond the first pair only forks
             * are worth following. */
            if (sorted_routes[k] < 2 && qdepth >= 2) break;
            int status = board_make(b, origin | sorted_squares[k]);
            int score = status ? MATE - ply - 1 : -quiesce(s, -beta, -alpha, ply + 1, qdepth + 1);
            board_unmake(b);
            if (s->aborted) return 0;
            if (score > best) {
                best = score;
                if (score > alpha) {
                    alpha = score;
                    if (alpha >= beta) break;
                }
            }
        }
        return best;
    }
    int32_t captures[4 * 4 * MAX_N];
    if (board_king_capturing_moves(b, captures)) return MATE - ply - 1;
    if (s->forts && encircling_moves(s, 1)) return MATE - ply - 1;
    int rays[4];
    int ray_count = open_rays(s, rays);
    if (!ray_count) {
        if (qdepth < MAX_QUIESCENCE) {
            uint8_t stoppers[MAX_SQ];
            if (fork_stoppers(s, stoppers) >= 0) {
                /* Searcher._stop_fork: the attackers' moves onto the stoppers. */
                int32_t moves[MAX_MOVES], landing[MAX_MOVES];
                int count = board_moves(b, moves), found = 0;
                for (int k = 0; k < count; k++)
                    if (stoppers[moves[k] & TARGET_MASK]) landing[found++] = moves[k];
                if (!found) return -(MATE - ply - 4);
                return answer_each(s, landing, found, alpha, beta, ply, qdepth);
            }
            if (fort_wins(s, stoppers)) {
                /* Searcher._stop_fort: the attackers' moves onto the stoppers, and captures. */
                int32_t moves[MAX_MOVES], answers[MAX_MOVES];
                int count = board_moves(b, moves), found = 0;
                for (int k = 0; k < count; k++)
                    if (stoppers[moves[k] & TARGET_MASK] || board_would_capture(b, moves[k]))
                        answers[found++] = moves[k];
                if (!found) return -(MATE - ply - 2);
                return answer_each(s, answers, found, alpha, beta, ply, qdepth);
            }
        }
        return evaluate(s);
    }
    if (ray_count >= 2) return -(MATE - ply - 2);
    int32_t blocks[MAX_MOVES];
    int count = blocking_moves(s, rays, ray_count, blocks);
    if (!count) return -(MATE - ply - 2);
    if (qdepth >= MAX_QUIESCENCE) return evaluate(s);
    int best = -INFINITY_SCORE;
    for (int k = 0; k < count; k++) {
        board_make(b, blocks[k]);
        int score = -quiesce(s, -beta, -alpha, ply + 1, qdepth + 1);
        board_unmake(b);
        if (s->aborted) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) break;
            }
        }
    }
    return best;
}

/* ------------------------------------------------------------------ main search */

/* Searcher._store */
static int store(Search *s, uint64_t key, int depth, int flag, int score, int32_t move, int ply) {
    if (score > MATE_BOUND)
        score += ply;
    else if (score < -MATE_BOUND)
        score -= ply;
    if (table_store(&s->tt, key, depth, flag, score, move)) {
        PyErr_NoMemory();
        s->aborted = 2;
        return -1;
    }
    return 0;
}

/* The score of a position that repeats one of the search's line or the game's history:
 * a draw, or a win for the side the variant's rule names. */
static inline int repetition_score(const Search *s, int turn, int ply) {
    /* -2 (search.py's MOVER_LOSES): the side that moved into it loses */
    if (s->repetition_winner == -2) return MATE - ply;
    if (s->repetition_winner < 0) return s->draw_scores[turn];
    return turn == s->repetition_winner ? MATE - ply : -(MATE - ply);
}

/* ------------------------------------------------------------------ the first move first */

/* The best of ``best`` and the moves onto ``target`` (a capture square) that the side to move
 * has: the nearest piece along each of the square's rays, if it is the side's and may go there. */
static inline Scored best_capture_to(const Search *s, Orderer *o, int target, Scored best) {
    const Board *b = &s->board;
    const Spec *sp = &s->spec;
    int turn = b->turn, own = turn == ATTACKERS ? ATTACKER : DEFENDER;
    for (int r = 0; r < sp->ray_count[target]; r++) {
        const int16_t *ray = sp->ray[target][r];
        int barred = sp->king_barred[target];
        for (int k = 0; k < sp->ray_len[target][r]; k++) {
            int square = ray[k];
            int piece = b->cells[square];
            if (piece == EMPTY) {
                barred |= sp->king_barred[square];
                continue;
            }
            int32_t move = (int32_t)square << MOVE_SHIFT | target;
            int legal = piece == own ? board_is_legal(b, move)
                                     : piece == KING && turn == DEFENDERS && !barred;
            if (legal) {
                Scored value = move_value(s, o, move);
                if (value > best) best = value;
            }
            break;
        }
    }
    return best;
}

/* Searcher._search generates and orders every move before searching the first. The C finds
 * that first move (the best by Searcher._order) without generating the others when the
 * bonuses decide it: the hash move, else the best capture, else a killer, else the best move
 * next to the king. It searches it, and only when it does not cut off generates the rest and
 * orders them by the history as it stood before (the journal undoes what the first move's
 * search added). Returns the first move, or 0 when it takes every move to know it. */
static int32_t first_move(Search *s, int32_t hash_move, int ply) {
    const Board *b = &s->board;
    const Spec *sp = &s->spec;
    int turn = b->turn;
    int64_t most = s->history_max[turn];
    /* Each stage needs the bonus it trusts to outweigh all history and the smaller bonuses. */
    if (most + CAPTURE_BONUS + KILLER_BONUS + KING_BONUS >= HASH_BONUS) return 0;
    if (hash_move && board_is_legal(b, hash_move)) return hash_move;
    if (most + KILLER_BONUS + KING_BONUS >= CAPTURE_BONUS) return 0;
    Orderer o;
    orderer_init(&o, s, hash_move, ply);
    Scored best = -1;
    /* Captures: every move onto an empty square that takes a piece (the best is the same in
     * any order). */
    int n = sp->n;
    for (int rank = 0; rank < n; rank++)
        for (uint32_t found = o.capture_rows[rank] & ~b->occ_rows[rank]; found; found &= found - 1)
            best = best_capture_to(s, &o, rank * n + __builtin_ctz(found), best);
    if (best >= 0) return SCORED_MOVE(best);
    if (most + KING_BONUS >= KILLER_BONUS) return 0;
    int32_t killers[2] = {o.killer0, o.killer1};
    for (int k = 0; k < 2; k++)
        if (killers[k] && board_is_legal(b, killers[k])) {
            Scored value = move_value(s, &o, killers[k]);
            if (value > best) best = value;
        }
    if (best >= 0) return SCORED_MOVE(best);
    if (most >= KING_BONUS || b->king < 0) return 0;
    int32_t moves[4 * 4 * MAX_N];
    int count = 0;
    if (turn == ATTACKERS) {
        for (int k = 0; k < sp->nb_count[b->king]; k++) {
            int target = sp->nb[b->king][k];
            if (b->cells[target] == EMPTY)
                count += board_attackers_reaching(b, target, moves + count);
        }
    } else {
        count = board_king_moves(b, moves);
    }
    for (int k = 0; k < count; k++) {
        Scored value = move_value(s, &o, moves[k]);
        if (value > best) best = value;
    }
    return best >= 0 ? SCORED_MOVE(best) : 0;
}

/* The journal's entries: the side's history index, and the amount, in two words. */
static void journal_add(Search *s, int side, size_t index, int64_t amount) {
    if (s->journal_length + 2 > s->journal_capacity) {
        size_t capacity = s->journal_capacity ? 2 * s->journal_capacity : 1 << 12;
        uint32_t *grown = realloc(s->journal, capacity * sizeof(uint32_t));
        if (!grown) {
            PyErr_NoMemory();
            s->aborted = 2;
            return;
        }
        s->journal = grown;
        s->journal_capacity = capacity;
    }
    s->journal[s->journal_length++] = (uint32_t)index << 1 | (uint32_t)side;
    s->journal[s->journal_length++] = (uint32_t)amount;
}

/* Undo (sign -1) or redo (+1) the side's history increments journaled since ``mark``. */
static void journal_apply(Search *s, size_t mark, int side, int sign) {
    for (size_t k = mark; k < s->journal_length; k += 2)
        if ((int)(s->journal[k] & 1) == side)
            s->history[side][s->journal[k] >> 1] += sign * (int64_t)s->journal[k + 1];
}

/* Searcher._search */
static int search(Search *s, int depth, int alpha, int beta, int ply) {
    Board *b = &s->board;
    uint64_t key = b->hash;
    prefetch_entries(s, key, 1);
    s->nodes++;
    if (stopped(s)) return 0;
    int turn = b->turn;
    if (on_path(s, key) || keyset_has(&s->seen, key)) return repetition_score(s, turn, ply);
    int forced[4], forced_count = -1;
    if (turn == DEFENDERS) {
        if (has_route(s)) return MATE - ply - 1;
    } else if (!s->reads_threats) {
        if (depth <= 0) return evaluate(s);
    } else {
        int32_t captures[4 * 4 * MAX_N];
        if (board_king_capturing_moves(b, captures)) return MATE - ply - 1;
        int rays = open_rays(s, forced);
        if (rays) {
            if (rays >= 2) return -(MATE - ply - 2);
            forced_count = rays;
        }
    }
    if (depth <= 0 && forced_count < 0) {
        if (!s->reads_threats) return evaluate(s);
        return quiesce(s, alpha, beta, ply, 0);
    }
    if (ply >= MAX_PLY) return evaluate(s);

    Entry *entry = table_find(&s->tt, key);
    int32_t hash_move = 0;
    if (entry) {
        hash_move = entry->move;
        if (entry->depth >= depth) {
            int score = entry->score;
            if (score > MATE_BOUND)
                score -= ply;
            else if (score < -MATE_BOUND)
                score += ply;
            if (entry->flag == EXACT) return score;
            if (entry->flag == LOWER) {
                if (score >= beta) return score;
            } else if (score <= alpha) {
                return score;
            }
        }
    }

    /* Searcher.pruning: shallow nodes off the principal variation, with no king threat to
     * answer, are cut short where their static evaluation puts the window out of reach. */
    const int *prune = s->pruning_settings;
    int shallow = s->pruning && beta - alpha == 1 && forced_count < 0 && alpha > -MATE_BOUND &&
                  beta < MATE_BOUND && depth <= prune[PRUNE_DEPTH];
    int stand = 0, has_stand = 0;
    if (shallow) {
        int32_t captures[4 * 4 * MAX_N];
        uint8_t stoppers[MAX_SQ];
        /* Not on a threat the evaluation does not read: for the defenders, the king taken next
         * move or an encirclement (the quiescence refuses to stand pat there); for the
         * attackers, a fork the king makes next move or an exit fort the defenders build. */
        int threatened = turn == DEFENDERS
                             ? board_king_capturing_moves(b, captures) || cornered(s)
                             : fork_stoppers(s, stoppers) >= 0 || fort_wins(s, NULL);
        if (!threatened) {
            stand = evaluate(s);
            has_stand = 1;
            if (stand - prune[PRUNE_STATIC_MARGIN] * depth >= beta) return stand;
        }
    }
    if (s->pruning && depth >= prune[PRUNE_UNGUIDED_DEPTH] && !hash_move && forced_count < 0)
        depth--; /* no move from the table: its order is a guess, read it a ply shallower */

    int32_t moves[MAX_MOVES];
    Scored list[MAX_MOVES];
    int count = 0, child_depth;
    int32_t first = 0;
    if (forced_count > 0) {
        count = blocking_moves(s, forced, forced_count, moves);
        if (!count) return -(MATE - ply - 2);
        child_depth = depth; /* a forced block does not use up the depth */
        order(s, moves, count, hash_move, ply, list);
    } else {
        child_depth = depth - 1;
        first = first_move(s, hash_move, ply);
        if (!first) {
            count = board_moves(b, moves);
            if (!count) return -(MATE - ply);
            order(s, moves, count, hash_move, ply, list);
        }
    }

    int original_alpha = alpha, best = -INFINITY_SCORE;
    int32_t best_move = 0;
    int32_t *killers = s->killers[ply];
    int reducible = s->reductions && depth >= 3 && forced_count < 0;
    size_t mark = 0;
    path_push(s, key);
    for (int index = 0;; index++) {
        int32_t move;
        if (first && index == 0) {
            move = first;
            mark = s->journal_length;
            s->pending++;
        } else {
            if (first && index == 1) {
                /* The others, ordered as they would have been before the first was searched. */
                count = board_moves(b, moves);
                journal_apply(s, mark, turn, -1);
                order(s, moves, count, hash_move, ply, list);
                journal_apply(s, mark, turn, 1);
                if (!s->pending) s->journal_length = 0;
                pick(list, 0, count); /* the first, already searched */
            }
            if (index >= count) break;
            move = pick(list, index, count);
            prefetch_ahead(s, list, index, count, child_depth > 0);
        }
        int status = board_make(b, move);
        int score;
        if (shallow && index >= 1 && !status && !b->stack[b->sp - 1].ncap &&
            b->stack[b->sp - 1].piece != KING && move != killers[0] && move != killers[1] &&
            best > -MATE_BOUND) {
            int late = prune[PRUNE_LATE_MOVES] + prune[PRUNE_LATE_MOVES_STEP] * depth * depth;
            int skip = index >= late || (has_stand && depth <= prune[PRUNE_FUTILITY_DEPTH] &&
                                         stand + prune[PRUNE_FUTILITY_MARGIN] * depth <= alpha);
            if (skip) {
                /* A move near the king (to or from his zone: forts, encirclements and captures
                 * are built there), one that opens a route for him, or lets him be taken, is
                 * no quiet move. */
                int n = s->spec.n, zone = prune[PRUNE_KING_ZONE];
                int king_row = b->king / n, king_col = b->king % n;
                int from = move >> MOVE_SHIFT, to = move & TARGET_MASK;
                if (b->king >= 0 && ((abs(from / n - king_row) <= zone &&
                                      abs(from % n - king_col) <= zone) ||
                                     (abs(to / n - king_row) <= zone &&
                                      abs(to % n - king_col) <= zone)))
                    skip = 0;
            }
            if (skip) {
                int32_t captures[4 * 4 * MAX_N];
                skip = turn == DEFENDERS ? !has_route(s) : !board_king_capturing_moves(b, captures);
            }
            if (skip) {
                board_unmake(b);
                continue;
            }
        }
        if (status) {
            score = MATE - ply - 1;
        } else if (index == 0) {
            score = -search(s, child_depth, -beta, -alpha, ply + 1);
        } else {
            int reduction = 0;
            /* Late quiet moves are searched shallower first; captures and the king's moves
             * (his plans: a fork, a fort) never are. How much shallower: late_reduction. */
            if (reducible && index >= 4 && move != killers[0] && move != killers[1] &&
                !b->stack[b->sp - 1].ncap && b->stack[b->sp - 1].piece != KING)
                reduction = s->even_reductions
                                ? (depth > LATE_REDUCTION + 1 ? LATE_REDUCTION : 1)
                                : s->late_reductions[depth < REDUCTION_DEPTHS ? depth
                                                                              : REDUCTION_DEPTHS - 1]
                                                    [index < REDUCTION_MOVES ? index
                                                                             : REDUCTION_MOVES - 1];
            score = -search(s, child_depth - reduction, -alpha - 1, -alpha, ply + 1);
            if (!s->aborted && score > alpha && (reduction || score < beta))
                score = -search(s, child_depth, -beta, -alpha, ply + 1);
        }
        board_unmake(b);
        if (first && index == 0) s->pending--;
        if (s->aborted) {
            path_pop(s);
            return 0;
        }
        if (score > best) {
            best = score;
            best_move = move;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) {
                    if (!board_would_capture(b, move)) {
                        if (killers[0] != move) {
                            killers[1] = killers[0];
                            killers[0] = move;
                        }
                        size_t slot = history_index(s, move);
                        int64_t added = (int64_t)depth * depth;
                        int64_t value = s->history[turn][slot] += added;
                        if (value > s->history_max[turn]) s->history_max[turn] = value;
                        if (s->pending) journal_add(s, turn, slot, added);
                    }
                    break;
                }
            }
        }
    }
    if (!s->pending) s->journal_length = 0;
    path_pop(s);
    int flag = best <= original_alpha ? UPPER : best >= beta ? LOWER : EXACT;
    if (store(s, key, depth, flag, best, best_move, ply)) return 0;
    return best;
}

/* ------------------------------------------------------------------ root */

/* The moves of ``list`` that are among ``given`` (kept in order); returns how many. */
static int keep_given(int32_t *list, int count, const int32_t *given, int given_count) {
    int kept = 0;
    for (int k = 0; k < count; k++) {
        int found = 0;
        for (int g = 0; g < given_count && !found; g++) found = given[g] == list[k];
        if (found) list[kept++] = list[k];
    }
    return kept;
}

/* Searcher._root. The last iteration's scores are ``previous`` (``previous_count`` moves and
 * their scores); ``ordered`` receives the moves searched, ``scores`` their scores (``*scored``
 * of them). Returns 0, or -1 when the search was stopped. */
int search_root(Search *s, int depth, const int32_t *moves, int count,
                const int32_t *previous_moves, const int32_t *previous_scores,
                int previous_count, int32_t *score_out, int32_t *best_out, int32_t *scores,
                int32_t *ordered, int *scored) {
    Board *b = &s->board;
    s->has_partial = 0;
    s->aborted = 0;
    s->pending = 0;
    s->journal_length = 0;
    *scored = 0;
    int32_t wins[4 * 4 * MAX_N];
    int win_count = 0;
    if (b->turn == DEFENDERS) {
        int rays[4];
        int open = open_rays(s, rays);
        for (int k = 0; k < open; k++) {
            int length = s->rays.length[b->king][rays[k]];
            wins[win_count++] =
                (int32_t)b->king << MOVE_SHIFT | s->rays.squares[b->king][rays[k]][length - 1];
        }
    } else {
        win_count = board_king_capturing_moves(b, wins);
    }
    /* The root's moves may leave some out (Searcher.search's exclude): keep to them. */
    win_count = keep_given(wins, win_count, moves, count);
    if (win_count) {
        *score_out = MATE - 1;
        *best_out = wins[0];
        ordered[0] = wins[0];
        scores[0] = MATE - 1;
        *scored = 1;
        return 0;
    }
    int extension = 0;
    int32_t blocks[MAX_MOVES];
    if (b->turn == ATTACKERS) {
        int rays[4];
        int open = open_rays(s, rays);
        if (open) {
            int found = open == 1 ? blocking_moves(s, rays, open, blocks) : 0;
            found = keep_given(blocks, found, moves, count);
            /* No block (or two routes): every move loses; keep them all to pick one. */
            if (found) {
                moves = blocks;
                count = found;
                extension = 1;
            }
        }
    }
    Entry *entry = table_find(&s->tt, b->hash);
    int32_t hash_move = entry ? entry->move : 0;
    if (previous_count) {
        /* _by_previous_scores: by score, best first; ties in the order the last iteration
         * searched them (``previous`` lists them so), unsearched moves last. */
        int32_t keys[MAX_MOVES], ranks[MAX_MOVES];
        for (int k = 0; k < count; k++) {
            keys[k] = -INFINITY_SCORE;
            ranks[k] = previous_count;
            for (int p = 0; p < previous_count; p++)
                if (previous_moves[p] == moves[k]) {
                    keys[k] = previous_scores[p];
                    ranks[k] = p;
                    break;
                }
            ordered[k] = moves[k];
        }
        for (int k = 1; k < count; k++) {
            int32_t move = ordered[k], key = keys[k], rank = ranks[k];
            int j = k - 1;
            while (j >= 0 && (keys[j] < key || (keys[j] == key && ranks[j] > rank))) {
                ordered[j + 1] = ordered[j];
                keys[j + 1] = keys[j];
                ranks[j + 1] = ranks[j];
                j--;
            }
            ordered[j + 1] = move;
            keys[j + 1] = key;
            ranks[j + 1] = rank;
        }
    } else {
        Scored list[MAX_MOVES];
        order(s, moves, count, hash_move, 0, list);
        for (int k = 0; k < count; k++) ordered[k] = pick(list, k, count);
    }
    int alpha = -INFINITY_SCORE, beta = INFINITY_SCORE;
    int32_t best_move = ordered[0];
    path_push(s, b->hash);
    for (int index = 0; index < count; index++) {
        int32_t move = ordered[index];
        int status = board_make(b, move);
        int score;
        if (status) {
            score = MATE - 1;
        } else if (index == 0) {
            score = -search(s, depth - 1 + extension, -beta, -alpha, 1);
        } else {
            score = -search(s, depth - 1 + extension, -alpha - 1, -alpha, 1);
            if (!s->aborted && score > alpha)
                score = -search(s, depth - 1 + extension, -beta, -alpha, 1);
        }
        board_unmake(b);
        if (s->aborted) {
            path_pop(s);
            return -1;
        }
        scores[index] = score;
        *scored = index + 1;
        if (score > alpha) {
            alpha = score;
            best_move = move;
            s->has_partial = 1;
            s->partial_move = move;
            s->partial_score = score;
        }
    }
    path_pop(s);
    if (store(s, b->hash, depth, EXACT, alpha, best_move, 0)) return -1;
    *score_out = alpha;
    *best_out = best_move;
    return 0;
}

/* Searcher._principal_variation */
int search_pv(Search *s, int32_t first, int depth, int32_t *out) {
    Board *b = &s->board;
    int length = 0, made = 1;
    out[length++] = first;
    board_make(b, first);
    uint64_t seen[MAX_STACK];
    int seen_count = 0;
    seen[seen_count++] = b->hash;
    while (length < depth && !b->status && made < MAX_STACK - 2) {
        Entry *entry = table_find(&s->tt, b->hash);
        if (!entry || !entry->move) break;
        int32_t moves[MAX_MOVES];
        int count = board_moves(b, moves), legal = 0;
        for (int k = 0; k < count; k++) legal |= moves[k] == entry->move;
        if (!legal) break;
        int32_t move = entry->move;
        board_make(b, move);
        made++;
        int repeated = 0;
        for (int k = 0; k < seen_count; k++) repeated |= seen[k] == b->hash;
        if (repeated) break;
        seen[seen_count++] = b->hash;
        out[length++] = move;
    }
    for (int k = 0; k < made; k++) board_unmake(b);
    return length;
}

/* The compiled play search of the face-up solver (issue 21 "Speed").
 *
 * Only the search lives here: every rule comes in as a table computed in
 * Python from euchre_events.rules (euchre_events/analysis/solver.py,
 * _c_tables and _play_fast): the card bits, each card's effective suit,
 * the trick key of each card per led suit (rules.md 1.3, the highest key
 * wins; `twins` says whether the first or the last of equal keys wins),
 * the cards of each effective suit from the strongest down (for merging
 * equal cards), who follows whom, each seat's party, and the value of
 * every tricks-won outcome (the variant's own score_deal).  It mirrors
 * solver._two_party and solver._max_n move for move; the differential test
 * (tests/test_analysis_differential.py) checks it against the reference.
 *
 *   tables(flat)                       -> capsule   (parsed PlayTables)
 *   two_party(tables, hands, side, nxt, turn, trick, led, done, per_deal,
 *             size, a_now, net_of, lead_order, twins) -> (net, nodes)
 *   two_party_moves(the same)          -> ([(card, net) per legal card], nodes)
 *   two_party_many(the same, other hands) -> ([net per hands], nodes)
 *   exchange(...)                      -> (net, nodes, plays known): a contract's
 *             discards and lone-hand choice, then the play (see py_exchange)
 *   exchange_clear()                   forgets the tricks' bounds exchange keeps
 *   max_n(tables, hands, side, nxt, turn, trick, led, done, per_deal,
 *         size, won, outcome, rank, n_vec, lead_order, twins)
 *                                                      -> (vector id, nodes)
 *
 * Card sets are 64-bit masks (bit i = the tables' card i); at most 64 cards
 * in play, 6 seats, 16 tricks, 8 effective suits.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t u64;

#define MAXC 64
#define MAXSU 8
#define MAXSEATS 6
#define MAXT 16
#define TT_BITS 16
#define TT_SIZE (1u << TT_BITS)

/* Inside the search a card's bit is its place in `runs`: each effective
 * suit a block of bits, the strongest card at the top of its block (so
 * "the next stronger card still in play" is one bit operation).  `to_bit`
 * maps the tables' card index (the Python masks) to that place. */
typedef struct {
    int n_cards, n_suits;
    int to_bit[MAXC];
    int eff[MAXC];             /* by bit */
    int keys[MAXSU][MAXC];     /* by bit */
    u64 suit_mask[MAXSU];
} Tables;

typedef struct {
    u64 hands[MAXSEATS];
    uint32_t gen;
    int8_t leader;
    int8_t won[MAXSEATS];   /* two-party: won[0] = side 0's tricks */
    int16_t lower, upper;   /* two-party bounds */
    int32_t vid;            /* max-n: the vector id */
} Entry;

static Entry *tt = NULL;
static uint32_t tt_gen = 0;

typedef struct {
    const Tables *T;
    int n_seats, size, per_deal, twins;
    int side[MAXSEATS], nxt[MAXSEATS];
    u64 hands[MAXSEATS];
    int lead_order[MAXC];
    /* two-party */
    int net_of[MAXT + 1];
    int lo[MAXT + 1][MAXT + 1], hi[MAXT + 1][MAXT + 1];
    /* max-n */
    int won[MAXSEATS];
    int mult[MAXSEATS];
    const int *outcome;
    Py_ssize_t n_outcome;
    const int *rank;   /* rank[party * n_vec + vid] */
    int *decided;      /* per won state: -2 not yet asked, -1 open, else the only vector id left */
    int n_vec;
    long long nodes;
} S;

static uint32_t hash_key(const S *s, int leader, const int8_t *won, int nw)
{
    u64 h = 0x9E3779B97F4A7C15ull * (u64)(leader + 1);
    for (int i = 0; i < s->n_seats; i++) {
        h ^= s->hands[i] + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
        h *= 0xFF51AFD7ED558CCDull;
    }
    for (int i = 0; i < nw; i++) {
        h ^= (u64)(uint8_t)won[i] << (8 * i);
        h *= 0xC4CEB9FE1A85EC53ull;
    }
    h ^= h >> 33;
    return (uint32_t)(h & (TT_SIZE - 1));
}

static int same_key(const S *s, const Entry *e, int leader, const int8_t *won, int nw)
{
    if (e->gen != tt_gen || e->leader != leader)
        return 0;
    for (int i = 0; i < s->n_seats; i++)
        if (e->hands[i] != s->hands[i])
            return 0;
    for (int i = 0; i < nw; i++)
        if (e->won[i] != won[i])
            return 0;
    return 1;
}

static void set_key(const S *s, Entry *e, int leader, const int8_t *won, int nw)
{
    e->gen = tt_gen;
    e->leader = (int8_t)leader;
    for (int i = 0; i < s->n_seats; i++)
        e->hands[i] = s->hands[i];
    for (int i = 0; i < nw; i++)
        e->won[i] = won[i];
}

/* The legal cards of `hand` with equal cards merged (solver._moves): two
 * cards of an effective suit are one move when no card between them is held
 * by another seat or lies in the trick (`others`): a legal card stands for
 * its group when the next stronger card still in play is not legal.
 * Ordered strongest first (`strength`, stable by bit). */
static int gen_moves(const S *s, u64 legal, u64 others, const int *strength, int *mv)
{
    const Tables *T = s->T;
    int n = 0;
    u64 present = legal | others;
    for (int su = 0; su < T->n_suits; su++) {
        u64 L = legal & T->suit_mask[su];
        if (!L)
            continue;
        u64 P = present & T->suit_mask[su];
        while (L) {
            u64 b = L & (~L + 1);
            u64 above = P & ~(b | (b - 1));
            u64 next = above & (~above + 1);
            if (!(next & legal))
                mv[n++] = __builtin_ctzll(b);
            L ^= b;
        }
    }
    for (int i = 1; i < n; i++) {   /* insertion sort, strongest first */
        int c = mv[i], k = strength[c], j = i - 1;
        while (j >= 0 && strength[mv[j]] < k) {
            mv[j + 1] = mv[j];
            j--;
        }
        mv[j + 1] = c;
    }
    return n;
}

/* The cards `seat` may play: those of the led suit if it holds any, else
 * its whole hand (ntrick 0: it leads; rules.md 1.4). */
static inline u64 legal_cards(const S *s, int seat, int ntrick, int led)
{
    u64 hand = s->hands[seat];
    if (ntrick) {
        u64 f = hand & s->T->suit_mask[led];
        if (f)
            return f;
    }
    return hand;
}

/* Every card still in play but `seat`'s own: the other hands and the trick. */
static inline u64 others_of(const S *s, int seat, u64 trick_mask)
{
    u64 others = trick_mask;
    for (int i = 0; i < s->n_seats; i++)
        if (i != seat)
            others |= s->hands[i];
    return others;
}

/* The moves of `seat` (gen_moves of its legal cards), strongest first. */
static inline int seat_moves(const S *s, int seat, int ntrick, int led, u64 trick_mask, int *mv)
{
    return gen_moves(s, legal_cards(s, seat, ntrick, led), others_of(s, seat, trick_mask),
                     ntrick ? s->T->keys[led] : s->lead_order, mv);
}

/* Whether a card of trick key `k` now leads the trick (`first`: it is the
 * trick's first card): a higher key, or an identical twin played later when
 * the first twin does not win (rules.md 1.3; solver._play_step). */
static inline int takes_lead(const S *s, int first, int k, int best)
{
    return first || k > best || (!s->twins && k == best);
}

/* Card bit `c` played by `seat` into a trick of `ntrick` cards led in `led`
 * and led so far by (`best`, `best_seat`): the trick's led suit after it
 * (`*lk`: the card's own effective suit when it leads) and its new lead
 * (`*nb`, `*nbs`; solver._play_step). */
static inline void play_into(const S *s, int seat, int c, int ntrick, int led, int best, int best_seat,
                             int *lk, int *nb, int *nbs)
{
    int l = ntrick ? led : s->T->eff[c];
    int k = s->T->keys[l][c];
    *lk = l;
    if (takes_lead(s, ntrick == 0, k, best)) {
        *nb = k;
        *nbs = seat;
    } else {
        *nb = best;
        *nbs = best_seat;
    }
}

/* ------------------------------------------------------------ two parties */

static int ab_play(S *s, int seat, int ntrick, int led, int best, int best_seat, u64 trick_mask,
                   int a, int done, int alpha, int beta);

static int ab_start(S *s, int leader, int a, int done, int alpha, int beta)
{
    int r = s->per_deal - done;
    int lo = s->lo[a][r], hi = s->hi[a][r];
    if (lo == hi || hi <= alpha || lo >= beta)
        return (lo >= beta || lo == hi) ? lo : hi;
    int8_t key = (int8_t)a;
    uint32_t h = hash_key(s, leader, &key, 1);
    Entry *e = &tt[h];
    int lower, upper;
    if (same_key(s, e, leader, &key, 1)) {
        lower = e->lower;
        upper = e->upper;
        if (lower >= beta)
            return lower;
        if (upper <= alpha)
            return upper;
        if (lower == upper)
            return lower;
        if (lower > alpha) alpha = lower;
        if (upper < beta) beta = upper;
    } else {
        lower = lo;
        upper = hi;
        if (lo > alpha) alpha = lo;
        if (hi < beta) beta = hi;
    }
    int val = ab_play(s, leader, 0, -1, 0, -1, 0, a, done, alpha, beta);
    if (val <= alpha) {
        if (val < upper) upper = val;
    } else if (val >= beta) {
        if (val > lower) lower = val;
    } else {
        lower = upper = val;
    }
    e = &tt[h];   /* the slot may have been reused below: overwrite it */
    set_key(s, e, leader, &key, 1);
    e->lower = (int16_t)lower;
    e->upper = (int16_t)upper;
    return val;
}

static int ab_play(S *s, int seat, int ntrick, int led, int best, int best_seat, u64 trick_mask,
                   int a, int done, int alpha, int beta)
{
    u64 hand = s->hands[seat];
    int mv[MAXC];
    int n = seat_moves(s, seat, ntrick, led, trick_mask, mv);
    int maxi = s->side[seat] == 0;
    int val = 0, have = 0;
    for (int m = 0; m < n; m++) {
        int c = mv[m];
        u64 b = 1ull << c;
        s->nodes++;
        int lk, nb, nbs;
        play_into(s, seat, c, ntrick, led, best, best_seat, &lk, &nb, &nbs);
        s->hands[seat] = hand ^ b;
        int x;
        if (ntrick + 1 == s->size)
            x = ab_start(s, nbs, a + (s->side[nbs] == 0 ? 1 : 0), done + 1, alpha, beta);
        else
            x = ab_play(s, s->nxt[seat], ntrick + 1, lk, nb, nbs, trick_mask | b, a, done, alpha, beta);
        s->hands[seat] = hand;
        if (!have || (maxi ? x > val : x < val)) {
            val = x;
            have = 1;
        }
        if (maxi) {
            if (val > alpha)
                alpha = val;
        } else if (val < beta) {
            beta = val;
        }
        if (alpha >= beta)
            break;
    }
    return val;
}

/* ------------------------------------------------------------ max-n */

static int mn_play(S *s, int seat, int ntrick, int led, int best, int best_seat, u64 trick_mask, int done);

static int mn_outcome(const S *s)
{
    Py_ssize_t idx = 0;
    for (int i = 0; i < s->n_seats; i++)
        idx += (Py_ssize_t)s->won[i] * s->mult[i];
    if (idx < 0 || idx >= s->n_outcome)
        return -1;
    return s->outcome[idx];
}

/* The one vector id every way of sharing the `r` tricks left leads to, or
 * -1 when they differ: the deal is decided (e.g. the maker euchred) and the
 * rest of the play cannot change it. */
static int only_outcome(S *s, int seat, int r, int *first)
{
    if (seat == s->n_seats - 1) {
        s->won[seat] += r;
        int v = mn_outcome(s);
        s->won[seat] -= r;
        if (*first == -3)
            *first = v;
        return v == *first && v >= 0;
    }
    for (int k = 0; k <= r; k++) {
        s->won[seat] += k;
        int ok = only_outcome(s, seat + 1, r - k, first);
        s->won[seat] -= k;
        if (!ok)
            return 0;
    }
    return 1;
}

static int mn_start(S *s, int leader, int done)
{
    if (done == s->per_deal)
        return mn_outcome(s);
    Py_ssize_t idx = 0;
    for (int i = 0; i < s->n_seats; i++)
        idx += (Py_ssize_t)s->won[i] * s->mult[i];
    if (idx < s->n_outcome) {
        int d = s->decided[idx];
        if (d == -2) {
            int first = -3;
            d = only_outcome(s, 0, s->per_deal - done, &first) ? first : -1;
            s->decided[idx] = d;
        }
        if (d >= 0)
            return d;
    }
    int8_t key[MAXSEATS];
    for (int i = 0; i < s->n_seats; i++)
        key[i] = (int8_t)s->won[i];
    uint32_t h = hash_key(s, leader, key, s->n_seats);
    Entry *e = &tt[h];
    if (same_key(s, e, leader, key, s->n_seats))
        return e->vid;
    int v = mn_play(s, leader, 0, -1, 0, -1, 0, done);
    if (v < 0)
        return v;
    e = &tt[h];
    set_key(s, e, leader, key, s->n_seats);
    e->vid = v;
    return v;
}

static int mn_play(S *s, int seat, int ntrick, int led, int best, int best_seat, u64 trick_mask, int done)
{
    u64 hand = s->hands[seat];
    int mv[MAXC];
    int n = seat_moves(s, seat, ntrick, led, trick_mask, mv);
    const int *rank = s->rank + (Py_ssize_t)s->side[seat] * s->n_vec;
    int bestv = -1;
    for (int m = 0; m < n; m++) {
        int c = mv[m];
        u64 b = 1ull << c;
        s->nodes++;
        int lk, nb, nbs;
        play_into(s, seat, c, ntrick, led, best, best_seat, &lk, &nb, &nbs);
        s->hands[seat] = hand ^ b;
        int x;
        if (ntrick + 1 == s->size) {
            s->won[nbs]++;
            x = mn_start(s, nbs, done + 1);
            s->won[nbs]--;
        } else {
            x = mn_play(s, s->nxt[seat], ntrick + 1, lk, nb, nbs, trick_mask | b, done);
        }
        s->hands[seat] = hand;
        if (x < 0 || x >= s->n_vec) {
            return -1;
        }
        if (bestv < 0 || rank[x] > rank[bestv])   /* the first of the best (solver._pick) */
            bestv = x;
    }
    return bestv;
}

/* ------------------------------------------------------------ Python glue */

static void free_tables(PyObject *cap)
{
    PyMem_Free(PyCapsule_GetPointer(cap, "euchre_events._playsearch.Tables"));
}

static int int_at(PyObject *seq, Py_ssize_t i, long *out)
{
    PyObject *o = PySequence_Fast_GET_ITEM(seq, i);
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *out = v;
    return 0;
}

/* flat: n_cards, n_suits, eff[n_cards], keys[n_suits][n_cards], then per
 * suit: run length, the run's card indices (strongest first); every card
 * in exactly one run, of its own suit. */
static PyObject *py_tables(PyObject *self, PyObject *arg)
{
    PyObject *seq = PySequence_Fast(arg, "tables: a sequence of ints");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq), p = 0;
    Tables *T = PyMem_Calloc(1, sizeof(Tables));
    int eff[MAXC], keys[MAXSU][MAXC], placed = 0;
    long v;
    if (!T) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
#define NEXT(dst) do { if (p >= n) goto short_; if (int_at(seq, p++, &v) < 0) goto fail; (dst) = (int)v; } while (0)
    NEXT(T->n_cards);
    NEXT(T->n_suits);
    if (T->n_cards < 0 || T->n_cards > MAXC || T->n_suits < 1 || T->n_suits > MAXSU) {
        PyErr_SetString(PyExc_ValueError, "tables: too many cards or suits for the compiled search");
        goto fail;
    }
    for (int i = 0; i < T->n_cards; i++) {
        NEXT(eff[i]);
        if (eff[i] < 0 || eff[i] >= T->n_suits) {
            PyErr_SetString(PyExc_ValueError, "tables: a suit index out of range");
            goto fail;
        }
        T->to_bit[i] = -1;
    }
    for (int su = 0; su < T->n_suits; su++)
        for (int i = 0; i < T->n_cards; i++)
            NEXT(keys[su][i]);
    for (int su = 0; su < T->n_suits; su++) {
        int len, base = placed;
        NEXT(len);
        if (len < 0 || placed + len > T->n_cards) {
            PyErr_SetString(PyExc_ValueError, "tables: runs longer than the cards");
            goto fail;
        }
        for (int j = 0; j < len; j++) {
            int c;
            NEXT(c);
            if (c < 0 || c >= T->n_cards || T->to_bit[c] >= 0 || eff[c] != su) {
                PyErr_SetString(PyExc_ValueError, "tables: a run's card out of range, repeated or of another suit");
                goto fail;
            }
            int bit = base + len - 1 - j;   /* the strongest at the top of the block */
            T->to_bit[c] = bit;
            T->eff[bit] = su;
            T->suit_mask[su] |= 1ull << bit;
        }
        placed += len;
    }
    if (placed != T->n_cards) {
        PyErr_SetString(PyExc_ValueError, "tables: a card in no run");
        goto fail;
    }
    for (int su = 0; su < T->n_suits; su++)
        for (int i = 0; i < T->n_cards; i++)
            T->keys[su][T->to_bit[i]] = keys[su][i];
#undef NEXT
    Py_DECREF(seq);
    {
        PyObject *cap = PyCapsule_New(T, "euchre_events._playsearch.Tables", free_tables);
        if (!cap)
            PyMem_Free(T);
        return cap;
    }
short_:
    PyErr_SetString(PyExc_ValueError, "tables: too few numbers");
fail:
    Py_DECREF(seq);
    PyMem_Free(T);
    return NULL;
}

static u64 to_bits(const Tables *T, unsigned long long m)
{
    u64 out = 0;
    while (m) {
        int c = __builtin_ctzll(m);
        m &= m - 1;
        if (c < T->n_cards)
            out |= 1ull << T->to_bit[c];
    }
    return out;
}

static int read_ints(PyObject *obj, int *dst, int max, int *count, const char *what)
{
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > max) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: too many values", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v;
        if (int_at(seq, i, &v) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        dst[i] = (int)v;
    }
    *count = (int)n;
    Py_DECREF(seq);
    return 0;
}

/* seat k's hand from the Python int `item` (a mask over the tables' card
 * codes) into s->hands[k]; -1 with an exception set when it is not one. */
static int read_hand(S *s, PyObject *item, int k)
{
    unsigned long long m = PyLong_AsUnsignedLongLong(item);
    if (m == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    if (s->T->n_cards < 64 && (m >> s->T->n_cards)) {
        PyErr_SetString(PyExc_ValueError, "hands: a card out of the tables");
        return -1;
    }
    s->hands[k] = to_bits(s->T, m);
    return 0;
}

/* The common arguments: hands, side, nxt, turn, trick, led, done, per_deal. */
static int setup(S *s, PyObject *tables, PyObject *hands, PyObject *side, PyObject *nxt,
                 PyObject *lead_order, int twins, int per_deal, int done, int size)
{
    memset(s, 0, sizeof(*s));
    s->T = PyCapsule_GetPointer(tables, "euchre_events._playsearch.Tables");
    if (!s->T)
        return -1;
    PyObject *seq = PySequence_Fast(hands, "hands: a sequence of masks");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > MAXSEATS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "hands: 1 to 6 seats");
        return -1;
    }
    s->n_seats = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (read_hand(s, PySequence_Fast_GET_ITEM(seq, i), (int)i) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    int k;
    if (read_ints(side, s->side, MAXSEATS, &k, "side") < 0)
        return -1;
    if (k != s->n_seats) {
        PyErr_SetString(PyExc_ValueError, "side: one per seat");
        return -1;
    }
    if (read_ints(nxt, s->nxt, MAXSEATS, &k, "nxt") < 0)
        return -1;
    if (k != s->n_seats) {
        PyErr_SetString(PyExc_ValueError, "nxt: one per seat");
        return -1;
    }
    for (int i = 0; i < s->n_seats; i++)
        if (s->nxt[i] < 0 || s->nxt[i] >= s->n_seats) {
            PyErr_SetString(PyExc_ValueError, "nxt: a seat out of range");
            return -1;
        }
    int lead[MAXC];
    if (read_ints(lead_order, lead, MAXC, &k, "lead_order") < 0)
        return -1;
    if (k != s->T->n_cards) {
        PyErr_SetString(PyExc_ValueError, "lead_order: one per card");
        return -1;
    }
    for (int i = 0; i < k; i++)
        s->lead_order[s->T->to_bit[i]] = lead[i];
    if (size < 1 || size > s->n_seats) {
        PyErr_SetString(PyExc_ValueError, "size: 1 to the seats' number of cards a trick");
        return -1;
    }
    s->size = size;
    if (per_deal < 1 || per_deal > MAXT || done < 0 || done > per_deal) {
        PyErr_SetString(PyExc_ValueError, "tricks out of range");
        return -1;
    }
    s->per_deal = per_deal;
    s->twins = twins;
    if (!tt) {
        tt = PyMem_Calloc(TT_SIZE, sizeof(Entry));
        if (!tt) {
            PyErr_NoMemory();
            return -1;
        }
    }
    if (++tt_gen == 0) {   /* wrapped: forget every entry */
        memset(tt, 0, TT_SIZE * sizeof(Entry));
        tt_gen = 1;
    }
    return 0;
}

/* The trick being played (flat seat, card, ...): the best key so far, its
 * seat, the mask of its cards and the active seats in it. */
static int read_trick(S *s, PyObject *trick, int led, int *ntrick, int *best, int *best_seat, u64 *mask)
{
    int tr[2 * MAXSEATS], k;
    if (read_ints(trick, tr, 2 * MAXSEATS, &k, "trick") < 0)
        return -1;
    *ntrick = k / 2;
    *best = 0;
    *best_seat = -1;
    *mask = 0;
    for (int i = 0; i < *ntrick; i++) {
        int seat = tr[2 * i], c = tr[2 * i + 1];
        if (seat < 0 || seat >= s->n_seats || c < 0 || c >= s->T->n_cards || led < 0 || led >= s->T->n_suits) {
            PyErr_SetString(PyExc_ValueError, "trick: a seat, card or led suit out of range");
            return -1;
        }
        c = s->T->to_bit[c];
        int key = s->T->keys[led][c];
        if (takes_lead(s, *best_seat < 0, key, *best)) {
            *best = key;
            *best_seat = seat;
        }
        *mask |= 1ull << c;
    }
    return 0;
}

/* The root of a two-party search: the arguments read into `s`, the
 * bounds of the net reachable, the trick being played. */
typedef struct {
    int turn, led, done, a_now, left, ntrick, best, best_seat;
    u64 tmask;
} Root;

static int two_party_root(S *s, PyObject *args, Root *r)
{
    PyObject *tables, *hands, *side, *nxt, *trick, *net_of, *lead_order;
    int per_deal, twins, size;
    memset(s, 0, sizeof(*s));
    if (!PyArg_ParseTuple(args, "OOOOiOiiiiiOOp", &tables, &hands, &side, &nxt, &r->turn, &trick, &r->led,
                          &r->done, &per_deal, &size, &r->a_now, &net_of, &lead_order, &twins))
        return -1;
    int turn = r->turn, done = r->done, a_now = r->a_now;
    if (setup(s, tables, hands, side, nxt, lead_order, twins, per_deal, done, size) < 0)
        return -1;
    int k;
    if (read_ints(net_of, s->net_of, MAXT + 1, &k, "net_of") < 0)
        return -1;
    if (k != per_deal + 1 || a_now < 0 || a_now > per_deal || turn < 0 || turn >= s->n_seats) {
        PyErr_SetString(PyExc_ValueError, "net_of: one per tricks taken, 0 .. per deal");
        return -1;
    }
    int left = per_deal - done;
    int top = a_now + left;
    if (top > per_deal) {
        PyErr_SetString(PyExc_ValueError, "more tricks to take than the deal has");
        return -1;
    }
    r->left = left;
    for (int a = a_now; a <= top; a++)
        for (int r = 0; r <= top - a; r++) {
            int lo = s->net_of[a], hi = s->net_of[a];
            for (int j = 1; j <= r; j++) {
                if (s->net_of[a + j] < lo) lo = s->net_of[a + j];
                if (s->net_of[a + j] > hi) hi = s->net_of[a + j];
            }
            s->lo[a][r] = lo;
            s->hi[a][r] = hi;
        }
    return read_trick(s, trick, r->led, &r->ntrick, &r->best, &r->best_seat, &r->tmask);
}

static PyObject *py_two_party(PyObject *self, PyObject *args)
{
    S *s = PyMem_Malloc(sizeof(S));
    if (!s)
        return PyErr_NoMemory();
    PyObject *res = NULL;
    Root r;
    if (two_party_root(s, args, &r) < 0)
        goto out;
    int lo = s->lo[r.a_now][r.left], hi = s->hi[r.a_now][r.left], val;
    if (r.ntrick == 0)
        val = ab_start(s, r.turn, r.a_now, r.done, lo - 1, hi + 1);
    else
        val = ab_play(s, r.turn, r.ntrick, r.led, r.best, r.best_seat, r.tmask, r.a_now, r.done, lo - 1, hi + 1);
    res = Py_BuildValue("iL", val, s->nodes);
out:
    PyMem_Free(s);
    return res;
}

/* two_party_moves: the same arguments; the exact net after each legal card
 * of the seat on turn, as [(card index, net), ...] (the tables' card
 * indices, strongest card first), all searched in one call so that they
 * share the transposition table.  Equal cards (gen_moves) are searched
 * once: a legal card takes the value of the strongest legal card of its
 * run of equals. */
static PyObject *py_two_party_moves(PyObject *self, PyObject *args)
{
    S *s = PyMem_Malloc(sizeof(S));
    if (!s)
        return PyErr_NoMemory();
    PyObject *res = NULL, *list = NULL;
    Root r;
    if (two_party_root(s, args, &r) < 0)
        goto out;
    const Tables *T = s->T;
    int seat = r.turn;
    u64 hand = s->hands[seat];
    u64 legal = legal_cards(s, seat, r.ntrick, r.led);
    u64 others = others_of(s, seat, r.tmask);
    int mv[MAXC];
    int n = gen_moves(s, legal, others, r.ntrick ? T->keys[r.led] : s->lead_order, mv);
    int from_bit[MAXC];
    for (int i = 0; i < T->n_cards; i++)
        from_bit[T->to_bit[i]] = i;
    int value[MAXC];
    int lo = s->lo[r.a_now][r.left], hi = s->hi[r.a_now][r.left];
    for (int m = 0; m < n; m++) {
        int c = mv[m];
        u64 b = 1ull << c;
        s->nodes++;
        int lk, nb, nbs;
        play_into(s, seat, c, r.ntrick, r.led, r.best, r.best_seat, &lk, &nb, &nbs);
        s->hands[seat] = hand ^ b;
        if (r.ntrick + 1 == s->size)
            value[c] = ab_start(s, nbs, r.a_now + (s->side[nbs] == 0 ? 1 : 0), r.done + 1, lo - 1, hi + 1);
        else
            value[c] = ab_play(s, s->nxt[seat], r.ntrick + 1, lk, nb, nbs, r.tmask | b, r.a_now, r.done,
                               lo - 1, hi + 1);
        s->hands[seat] = hand;
    }
    list = PyList_New(0);
    if (!list)
        goto out;
    u64 present = legal | others;
    for (int m = 0; m < n; m++) {
        /* each member of the run mv[m] stands for: legal cards below it
         * with no card of another seat or the trick between */
        int c = mv[m];
        u64 sm = T->suit_mask[T->eff[c]];
        u64 b = 1ull << c;
        for (;;) {
            PyObject *item = Py_BuildValue("ii", from_bit[__builtin_ctzll(b)], value[c]);
            if (!item || PyList_Append(list, item) < 0) {
                Py_XDECREF(item);
                goto out;
            }
            Py_DECREF(item);
            u64 below = present & sm & (b - 1);
            if (!below)
                break;
            u64 nb = 1ull << (63 - __builtin_clzll(below));   /* the next weaker card in play */
            if (!(nb & legal))
                break;
            b = nb;
        }
    }
    res = Py_BuildValue("OL", list, s->nodes);
out:
    Py_XDECREF(list);
    PyMem_Free(s);
    return res;
}

static PyObject *py_max_n(PyObject *self, PyObject *args)
{
    PyObject *tables, *hands, *side, *nxt, *trick, *won, *outcome, *rank, *lead_order;
    int turn, led, done, per_deal, twins, n_vec, size;
    if (!PyArg_ParseTuple(args, "OOOOiOiiiiOOOiOp", &tables, &hands, &side, &nxt, &turn, &trick, &led,
                          &done, &per_deal, &size, &won, &outcome, &rank, &n_vec, &lead_order, &twins))
        return NULL;
    S *s = PyMem_Malloc(sizeof(S));
    if (!s)
        return PyErr_NoMemory();
    PyObject *res = NULL, *oseq = NULL, *rseq = NULL;
    int *obuf = NULL, *rbuf = NULL, *dbuf = NULL;
    if (setup(s, tables, hands, side, nxt, lead_order, twins, per_deal, done, size) < 0)
        goto out;
    int k;
    if (read_ints(won, s->won, MAXSEATS, &k, "won") < 0)
        goto out;
    if (k != s->n_seats || turn < 0 || turn >= s->n_seats || n_vec < 1) {
        PyErr_SetString(PyExc_ValueError, "won: one per seat");
        goto out;
    }
    Py_ssize_t need = 1;
    for (int i = 0; i < s->n_seats; i++) {
        s->mult[i] = (int)need;
        need *= per_deal + 1;
    }
    oseq = PySequence_Fast(outcome, "outcome: a sequence of ints");
    rseq = PySequence_Fast(rank, "rank: a sequence of ints");
    if (!oseq || !rseq)
        goto out;
    Py_ssize_t no = PySequence_Fast_GET_SIZE(oseq), nr = PySequence_Fast_GET_SIZE(rseq);
    if (no != need || nr < (Py_ssize_t)n_vec * s->n_seats) {
        PyErr_SetString(PyExc_ValueError, "outcome: (per deal + 1) ** seats entries; rank: seats * vectors");
        goto out;
    }
    obuf = PyMem_Malloc(sizeof(int) * (no ? no : 1));
    rbuf = PyMem_Malloc(sizeof(int) * (nr ? nr : 1));
    dbuf = PyMem_Malloc(sizeof(int) * (no ? no : 1));
    if (!obuf || !rbuf || !dbuf) {
        PyErr_NoMemory();
        goto out;
    }
    for (Py_ssize_t i = 0; i < no; i++) {
        long v;
        if (int_at(oseq, i, &v) < 0)
            goto out;
        obuf[i] = (int)v;
    }
    for (Py_ssize_t i = 0; i < nr; i++) {
        long v;
        if (int_at(rseq, i, &v) < 0)
            goto out;
        rbuf[i] = (int)v;
    }
    for (int i = 0; i < s->n_seats; i++)
        if (s->side[i] < 0 || (Py_ssize_t)(s->side[i] + 1) * n_vec > nr) {
            PyErr_SetString(PyExc_ValueError, "side: a party with no ranks");
            goto out;
        }
    s->outcome = obuf;
    s->n_outcome = no;
    s->decided = dbuf;
    for (Py_ssize_t i = 0; i < no; i++)
        dbuf[i] = -2;
    s->rank = rbuf;
    s->n_vec = n_vec;
    int ntrick, best, best_seat;
    u64 tmask;
    if (read_trick(s, trick, led, &ntrick, &best, &best_seat, &tmask) < 0)
        goto out;
    int v;
    if (ntrick == 0)
        v = mn_start(s, turn, done);
    else
        v = mn_play(s, turn, ntrick, led, best, best_seat, tmask, done);
    if (v < 0) {
        PyErr_SetString(PyExc_ValueError, "an outcome the tables do not score");
        goto out;
    }
    res = Py_BuildValue("iL", v, s->nodes);
out:
    Py_XDECREF(oseq);
    Py_XDECREF(rseq);
    PyMem_Free(obuf);
    PyMem_Free(rbuf);
    PyMem_Free(dbuf);
    PyMem_Free(s);
    return res;
}

/* two_party_many: the arguments of two_party and, last, a sequence of
 * other hands (each a sequence of masks, one per seat, as `hands`); the
 * exact net of the position with `hands` and with each of the others, as
 * [net, ...] in that order, all searched in one call so that they share
 * the transposition table (its entries are keyed by every seat's hand, the
 * leader and the tricks won: exact across positions that differ only in
 * the hands, such as the dealer's discards).  Every hands must hold the
 * same number of cards as `hands`: the caller's check. */
static PyObject *py_two_party_many(PyObject *self, PyObject *args)
{
    Py_ssize_t na = PyTuple_GET_SIZE(args);
    if (na < 2) {
        PyErr_SetString(PyExc_TypeError, "two_party_many: the arguments of two_party, then the other hands");
        return NULL;
    }
    PyObject *others = PyTuple_GET_ITEM(args, na - 1);
    PyObject *head = PyTuple_GetSlice(args, 0, na - 1);
    if (!head)
        return NULL;
    S *s = PyMem_Malloc(sizeof(S));
    PyObject *res = NULL, *list = NULL, *seq = NULL;
    if (!s) {
        Py_DECREF(head);
        return PyErr_NoMemory();
    }
    Root r;
    if (two_party_root(s, head, &r) < 0)
        goto out;
    seq = PySequence_Fast(others, "others: a sequence of hands");
    if (!seq)
        goto out;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    list = PyList_New(n + 1);
    if (!list)
        goto out;
    int lo = s->lo[r.a_now][r.left], hi = s->hi[r.a_now][r.left];
    for (Py_ssize_t i = 0; i <= n; i++) {
        if (i > 0) {
            PyObject *h = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, i - 1), "hands: a sequence of masks");
            if (!h)
                goto out;
            if (PySequence_Fast_GET_SIZE(h) != s->n_seats) {
                Py_DECREF(h);
                PyErr_SetString(PyExc_ValueError, "others: one mask per seat, as hands");
                goto out;
            }
            for (int k = 0; k < s->n_seats; k++) {
                if (read_hand(s, PySequence_Fast_GET_ITEM(h, k), k) < 0) {
                    Py_DECREF(h);
                    goto out;
                }
            }
            Py_DECREF(h);
        }
        int val;
        if (r.ntrick == 0)
            val = ab_start(s, r.turn, r.a_now, r.done, lo - 1, hi + 1);
        else
            val = ab_play(s, r.turn, r.ntrick, r.led, r.best, r.best_seat, r.tmask, r.a_now, r.done, lo - 1, hi + 1);
        PyObject *v = PyLong_FromLong(val);
        if (!v)
            goto out;
        PyList_SET_ITEM(list, i, v);
    }
    res = Py_BuildValue("OL", list, s->nodes);
out:
    Py_XDECREF(list);
    Py_XDECREF(seq);
    Py_DECREF(head);
    PyMem_Free(s);
    return res;
}

/* exchange: a contract's last choices before the play, alpha-beta on side
 * 0's net over them (solver._net_ab, move for move): a seat's choice among
 * hands (the dealer's discards: one mask of that seat's hand per discard,
 * party `party_d` choosing, or one choice of no discard), then a choice
 * among play starts (alone or not: `options`, party `party_a` choosing),
 * each searched as two_party on the nets clamped to the window it gets.
 *
 *   exchange(tables, lead_order, twins, per_deal, hands, seat, seat_hands,
 *            party_d, options, party_a, alpha, beta, shapes)
 *       -> (net in [alpha, beta], nodes, plays answered by the bounds kept)
 *
 * hands: a mask per seat (the tables' codes; `seat`'s own replaced by each
 * of `seat_hands`, seat -1: `seat_hands` is ignored and the one choice is
 * `hands`); options: (side, nxt, turn, size, net_of, seats in play as a bit
 * mask) per play start, every trick still to play and none won; shapes:
 * per option the id under which its tricks' bounds are kept, or -1 (KbEntry).  Which
 * choices there are, who makes them and the play starts they lead to are
 * the engine's (the caller applies them): nothing of the rules is here. */
typedef struct Opt {
    int side[MAXSEATS], nxt[MAXSEATS], turn, size, inplay;
    int net_of[MAXT + 1];
} Opt;

/* The tricks' bounds of the plays exchange searched (as solver._KB keeps
 * them for the plays it searches): k0 <= side 0's final tricks <= k1 under
 * perfect play, each party playing for its own net, kept across calls per
 * play start (the caller's id of its tables, seating and cards a trick; the
 * hands; the leader) until exchange_clear.  Read and narrowed only for a
 * play whose nets never fall as side 0 takes more tricks (the caller's
 * shape id, -1: not so): minimax commutes with such a function of the
 * count, so one search of a play bounds the count for every contract of it
 * (solver._k_learn). */
#define KB_BITS 14
#define KB_SIZE (1u << KB_BITS)
typedef struct {
    u64 hands[MAXSEATS];
    uint32_t gen;
    int32_t shape;
    int8_t leader, k0, k1;
} KbEntry;

static KbEntry *kbt = NULL;
static uint32_t kb_gen = 1;

static KbEntry *kb_slot(const S *s, int shape, int leader, int *hit)
{
    u64 h = 0x9E3779B97F4A7C15ull * (u64)(shape + 7) ^ (u64)(leader + 1);
    for (int i = 0; i < s->n_seats; i++) {
        h ^= s->hands[i] + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
        h *= 0xFF51AFD7ED558CCDull;
    }
    h ^= h >> 29;
    KbEntry *e = &kbt[h & (KB_SIZE - 1)];
    *hit = e->gen == kb_gen && e->shape == shape && e->leader == leader;
    for (int i = 0; *hit && i < s->n_seats; i++)
        if (e->hands[i] != s->hands[i])
            *hit = 0;
    return e;
}

static PyObject *py_exchange_clear(PyObject *self, PyObject *noarg)
{
    if (++kb_gen == 0) {
        if (kbt)
            memset(kbt, 0, KB_SIZE * sizeof(KbEntry));
        kb_gen = 1;
    }
    Py_RETURN_NONE;
}

typedef struct Ex {
    const int *shape;   /* per option */
    long long known;
    const struct Opt *opts0;
} Ex;

static int ex_leaf(S *s, Ex *x, const Opt *o, const u64 *hands, int a, int b)
{
    for (int i = 0; i < s->n_seats; i++) {
        s->side[i] = o->side[i];
        s->nxt[i] = o->nxt[i];
        s->hands[i] = (o->inplay >> i) & 1 ? hands[i] : 0;
    }
    s->size = o->size;
    int pd = s->per_deal;
    for (int k = 0; k <= pd; k++) {
        int n = o->net_of[k];
        s->net_of[k] = n < a ? a : n > b ? b : n;
    }
    int shape = x->shape[o - x->opts0], hit = 0, k0 = -1, k1 = -1;
    KbEntry *kbe = NULL;
    if (shape >= 0) {
        kbe = kb_slot(s, shape, o->turn, &hit);
        k0 = hit ? kbe->k0 : 0;
        k1 = hit ? kbe->k1 : pd;
    }
    if (hit) {
        /* the count lies in [k0, k1]: known where the nets agree there, else
         * the values outside it made flat (the same value, more cut-offs) */
        if (s->net_of[k0] == s->net_of[k1]) {
            x->known++;
            return s->net_of[k0];
        }
        for (int k = 0; k < k0; k++)
            s->net_of[k] = s->net_of[k0];
        for (int k = k1 + 1; k <= pd; k++)
            s->net_of[k] = s->net_of[k1];
    }
    for (int y = 0; y <= pd; y++)
        for (int r = 0; r <= pd - y; r++) {
            int lo = s->net_of[y], hi = s->net_of[y];
            for (int j = 1; j <= r; j++) {
                if (s->net_of[y + j] < lo) lo = s->net_of[y + j];
                if (s->net_of[y + j] > hi) hi = s->net_of[y + j];
            }
            s->lo[y][r] = lo;
            s->hi[y][r] = hi;
        }
    if (++tt_gen == 0) {   /* wrapped: forget every entry */
        memset(tt, 0, TT_SIZE * sizeof(Entry));
        tt_gen = 1;
    }
    int lo = s->lo[0][pd], hi = s->hi[0][pd];
    int val = ab_start(s, o->turn, 0, 0, lo - 1, hi + 1);
    if (kbe) {
        /* narrow to the counts whose value is the one searched (solver._k_learn) */
        int lo = k0, hi = k1;
        while (lo < hi && s->net_of[lo] != val)
            lo++;
        while (hi > lo && s->net_of[hi] != val)
            hi--;
        if (s->net_of[lo] != val) {   /* cannot be: keep nothing */
            if (hit)
                kbe->gen = 0;
        } else {
            kbe->gen = kb_gen;
            kbe->shape = shape;
            kbe->leader = (int8_t)o->turn;
            for (int i = 0; i < s->n_seats; i++)
                kbe->hands[i] = s->hands[i];
            kbe->k0 = (int8_t)lo;
            kbe->k1 = (int8_t)hi;
        }
    }
    return val;
}

static int ex_choice(S *s, Ex *e, const Opt *opts, int n_opts, const u64 *hands, int party,
                     int a, int b)
{
    int v = party == 0 ? a : b;
    for (int j = 0; j < n_opts; j++) {
        if (party == 0) {
            int x = ex_leaf(s, e, &opts[j], hands, v, b);
            if (x > v) {
                v = x;
                if (v >= b)
                    break;
            }
        } else {
            int x = ex_leaf(s, e, &opts[j], hands, a, v);
            if (x < v) {
                v = x;
                if (v <= a)
                    break;
            }
        }
    }
    return v < a ? a : v > b ? b : v;
}

static PyObject *py_exchange(PyObject *self, PyObject *args)
{
    PyObject *tables, *lead_order, *hands, *seat_hands, *options, *kb_obj;
    int twins, per_deal, seat, party_d, party_a, alpha, beta;
    if (!PyArg_ParseTuple(args, "OOpiOiOiOiiiO", &tables, &lead_order, &twins, &per_deal, &hands, &seat,
                          &seat_hands, &party_d, &options, &party_a, &alpha, &beta, &kb_obj))
        return NULL;
    int shapes[4];
    Ex e = {shapes, 0, NULL};
    S *s = PyMem_Malloc(sizeof(S));
    if (!s)
        return PyErr_NoMemory();
    PyObject *res = NULL, *seq = NULL, *hs = NULL;
    Opt opts[4];
    u64 choices[16];
    int n_choices = 1;
    PyObject *side0 = NULL, *nxt0 = NULL;
    seq = PySequence_Fast(options, "options: a sequence of play starts");
    if (!seq)
        goto out;
    Py_ssize_t n_opts = PySequence_Fast_GET_SIZE(seq);
    if (n_opts < 1 || n_opts > 4) {
        PyErr_SetString(PyExc_ValueError, "options: 1 to 4 play starts");
        goto out;
    }
    for (Py_ssize_t j = 0; j < n_opts; j++) {
        PyObject *o = PySequence_Fast_GET_ITEM(seq, j), *net_of;
        Opt *op = &opts[j];
        if (!PyArg_ParseTuple(o, "OOiiOi", &side0, &nxt0, &op->turn, &op->size, &net_of, &op->inplay))
            goto out;
        if (j == 0 && setup(s, tables, hands, side0, nxt0, lead_order, twins, per_deal, 0, op->size) < 0)
            goto out;
        int k;
        if (read_ints(side0, op->side, MAXSEATS, &k, "side") < 0)
            goto out;
        if (k != s->n_seats) {
            PyErr_SetString(PyExc_ValueError, "side: one per seat");
            goto out;
        }
        if (read_ints(nxt0, op->nxt, MAXSEATS, &k, "nxt") < 0)
            goto out;
        if (k != s->n_seats) {
            PyErr_SetString(PyExc_ValueError, "nxt: one per seat");
            goto out;
        }
        for (int i = 0; i < k; i++)
            if (op->nxt[i] < 0 || op->nxt[i] >= s->n_seats) {
                PyErr_SetString(PyExc_ValueError, "nxt: a seat out of range");
                goto out;
            }
        if (read_ints(net_of, op->net_of, MAXT + 1, &k, "net_of") < 0)
            goto out;
        if (k != per_deal + 1 || op->turn < 0 || op->turn >= s->n_seats || op->size < 1
                || op->size > s->n_seats) {
            PyErr_SetString(PyExc_ValueError, "an option out of range");
            goto out;
        }
    }
    u64 base[MAXSEATS];
    for (int i = 0; i < s->n_seats; i++)
        base[i] = s->hands[i];
    if (seat >= 0) {
        if (seat >= s->n_seats) {
            PyErr_SetString(PyExc_ValueError, "seat out of range");
            goto out;
        }
        hs = PySequence_Fast(seat_hands, "seat_hands: a sequence of masks");
        if (!hs)
            goto out;
        n_choices = (int)PySequence_Fast_GET_SIZE(hs);
        if (n_choices < 1 || n_choices > 16) {
            PyErr_SetString(PyExc_ValueError, "seat_hands: 1 to 16 hands");
            goto out;
        }
        for (int i = 0; i < n_choices; i++) {
            if (read_hand(s, PySequence_Fast_GET_ITEM(hs, i), seat) < 0)
                goto out;
            choices[i] = s->hands[seat];
        }
    }
    int n_sh;
    if (read_ints(kb_obj, shapes, 4, &n_sh, "shapes") < 0)
        goto out;
    if (n_sh != (int)n_opts) {
        PyErr_SetString(PyExc_ValueError, "shapes: one per option");
        goto out;
    }
    e.opts0 = opts;
    if (!kbt) {
        kbt = PyMem_Calloc(KB_SIZE, sizeof(KbEntry));
        if (!kbt) {
            PyErr_NoMemory();
            goto out;
        }
    }
    int v;
    if (seat < 0) {
        v = ex_choice(s, &e, opts, (int)n_opts, base, party_a, alpha, beta);
    } else {
        v = party_d == 0 ? alpha : beta;
        for (int i = 0; i < n_choices; i++) {
            base[seat] = choices[i];
            if (party_d == 0) {
                int x = ex_choice(s, &e, opts, (int)n_opts, base, party_a, v, beta);
                if (x > v) {
                    v = x;
                    if (v >= beta)
                        break;
                }
            } else {
                int x = ex_choice(s, &e, opts, (int)n_opts, base, party_a, alpha, v);
                if (x < v) {
                    v = x;
                    if (v <= alpha)
                        break;
                }
            }
        }
        v = v < alpha ? alpha : v > beta ? beta : v;
    }
    res = Py_BuildValue("iLL", v, s->nodes, e.known);
out:
    Py_XDECREF(seq);
    Py_XDECREF(hs);
    PyMem_Free(s);
    return res;
}

static PyMethodDef methods[] = {
    {"tables", py_tables, METH_O, "Parse a flat table of card suits, trick keys and runs into a capsule."},
    {"two_party", py_two_party, METH_VARARGS, "Alpha-beta on side 0's net value: (net, nodes)."},
    {"two_party_moves", py_two_party_moves, METH_VARARGS,
     "Alpha-beta on side 0's net value after each legal card at the root: ([(card, net)], nodes)."},
    {"two_party_many", py_two_party_many, METH_VARARGS,
     "Alpha-beta on side 0's net value of the position and of each other hands given: ([net], nodes)."},
    {"exchange", py_exchange, METH_VARARGS,
     "Alpha-beta on side 0's net over a seat's hands, then play starts: (net, nodes)."},
    {"exchange_clear", py_exchange_clear, METH_NOARGS, "Forget the tricks' bounds exchange keeps."},
    {"max_n", py_max_n, METH_VARARGS, "Max-n with ranked outcome vectors: (vector id, nodes)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_playsearch",
    "The compiled play search of euchre_events.analysis.solver (tables from Python; search only).",
    -1, methods,
};

PyMODINIT_FUNC PyInit__playsearch(void)
{
    return PyModule_Create(&module);
}

/* meldcalc.engines._solver: the exact (double-dummy) trick-play search.
 *
 * The value of a position is the trick points (counters of the cards won plus the last-trick
 * bonus) that seat 0's side takes from it to the end of the hand, every hand visible and every
 * seat playing its best. The rules are those of meldcalc/rules/tricks.py, parametrised as a variant
 * says: counters per rank, last-trick bonus, heading duty, over-trumping, 2 to 4 players,
 * 1 to 4 copies of each card.
 *
 * The search: fail-soft alpha-beta with principal-variation search (after the first card,
 * each card is first asked only whether it beats the best so far: a null window). The root
 * searches the whole range of points, and each card's value is first probed at the
 * position's (most cards are as good as the best). At a trick boundary
 * the points each side is sure of (its trumps above all of the other side's, and for the side
 * on lead the top cards of other suits the leader can cash) may settle the search at once.
 * Trick boundaries with three tricks or more left are remembered in a transposition table
 * (buckets of two entries, one cache line) of lower and upper bounds and the best lead,
 * kept from one position to the next of the same deal, under a normalised key: within a suit,
 * cards gone from play are squeezed out of each run of the deck's ranks with equal counters
 * (ranks a house deck lacks are no part of it), so positions that differ only by which equal
 * cards went share an entry. Two tricks from the end a plain search is cheaper than the
 * table. Cards a seat holds that play alike (same suit and counter, nothing between them held
 * elsewhere or on the table) are tried once. Candidate cards are ordered by the trick simple
 * players would finish from them, and far from the end a lead also by what the table knows of
 * the position after that trick (the buckets of every lead fetched before any is read).
 *
 * Python sees one type, Solver (it owns the table), with two methods, solve (values and
 * per-card values of many positions) and line (an optimal play sequence of one position),
 * and a counter of positions searched, nodes. Bulk input comes through the buffer protocol
 * as int64; every position is checked before it is searched (ValueError, never a crash).
 * A search runs without the GIL and stops early, its results discarded, when its time
 * limit passes (it raises TimeLimit) or, in the main thread, when a signal's handler
 * raises (Ctrl-C: KeyboardInterrupt), looked at every 20 ms.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* --- cards ------------------------------------------------------------------------------ */

enum { NRANKS = 6, NSUITS = 4, NCARDS = 24, MAXP = 4, MAXCOPIES = 4 };
enum { HEAD_ALWAYS = 0, HEAD_TRUMP_LED = 1, HEAD_NEVER = 2 };
#define INF (1 << 30)
#define NO_MOVE 0xFF

static const char *const CARD_NAMES[NCARDS] = {
    "AS", "10S", "KS", "QS", "JS", "9S", "AH", "10H", "KH", "QH", "JH", "9H",
    "AD", "10D", "KD", "QD", "JD", "9D", "AC", "10C", "KC", "QC", "JC", "9C",
};

/* A card is suit * 6 + rank, ranks high to low; a set of cards is a 24-bit mask, so the
 * lowest bit of a suit's slice is its highest card. */
static inline int suit_of(int card) { return card / NRANKS; }
static inline uint32_t suit_cards(int suit) { return 0x3Fu << (NRANKS * suit); }
static inline uint32_t bit(int card) { return 1u << card; }

/* Set bits of a card mask; spelled out because without -mpopcnt (the wheel must run on any
 * x86_64) __builtin_popcount is a library call. */
static inline int count_cards(uint32_t x)
{
    x -= (x >> 1) & 0x55555555u;
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

/* The cards of the same suit that outrank `card`. */
static inline uint32_t above(int card) { return suit_cards(suit_of(card)) & (bit(card) - 1); }

static inline int beats(int card, int best, int trump)
{
    if (suit_of(card) == suit_of(best)) return card < best; /* an identical card does not */
    return suit_of(card) == trump;
}

/* The cards that beat `best` when played after it. */
static inline uint32_t beating(int best, int trump)
{
    return above(best) | (suit_of(best) == trump ? 0 : suit_cards(trump));
}

/* A position's key in the transposition table: exact where it fits 128 bits. */
typedef unsigned __int128 Key;

/* --- rules ------------------------------------------------------------------------------ */

typedef struct {
    int players, copies, head, overtrump;
    int32_t last_trick;
    int32_t points[NCARDS];
    int32_t step;        /* gcd of every counter and the bonus: all values are multiples */
    uint32_t deck;       /* the cards the deck holds */
    int8_t cheapest[NRANKS]; /* the deck's ranks by counter, lowest first (-1 past them) */
    int side[MAXP];      /* 0: seat 0's side */
    uint8_t seat_at[MAXP][MAXP]; /* the seat playing i-th to a trick led by a seat: no % */
    /* The normalised key: a run is a maximal range of the deck's ranks with equal counters
     * (ranks the deck lacks are no part of any run); the cards in play of a run are numbered
     * from its top, over the deck's cards only, so every number is a card with a digit. */
    int8_t run_top[NCARDS];      /* the first card of the run holding a card (deck cards) */
    int8_t next_in_run[NCARDS];  /* the deck's next card below in the same run, or -1 */
    uint8_t digit[625];  /* per-seat counts of a card (base 5) -> one digit of the key */
    unsigned radix;      /* how many digits there are */
    Key place[NCARDS];   /* the weight of each normalised card's digit */
    Key leader_weight;
    int exact_key;       /* the mixed-radix key fits 128 bits */
} Rules;

static int32_t gcd(int32_t a, int32_t b)
{
    while (b) {
        int32_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Number every way `copies` or fewer copies of a card can lie among the seats. */
static void number_owner_digits(Rules *r)
{
    unsigned next = 0;
    memset(r->digit, 0, sizeof r->digit);
    for (int c0 = 0; c0 <= MAXCOPIES; c0++)
        for (int c1 = 0; c1 <= MAXCOPIES; c1++)
            for (int c2 = 0; c2 <= MAXCOPIES; c2++)
                for (int c3 = 0; c3 <= MAXCOPIES; c3++) {
                    int seated = (r->players > 2 || c2 == 0) && (r->players > 3 || c3 == 0);
                    if (seated && c0 + c1 + c2 + c3 <= r->copies)
                        r->digit[((c0 * 5 + c1) * 5 + c2) * 5 + c3] = (uint8_t)next++;
                }
    r->radix = next;
}

/* Runs of equal counters over the deck's cards, suit by suit from the top; a card the deck
 * lacks (a rank a house deck leaves out) neither joins nor breaks a run: no card of it is
 * ever in play, so the cards on either side of it are neighbours in play. */
static void number_runs(Rules *r)
{
    memset(r->run_top, -1, sizeof r->run_top);
    memset(r->next_in_run, -1, sizeof r->next_in_run);
    for (int suit = 0; suit < NSUITS; suit++) {
        int previous = -1; /* the deck's last card above, in this suit */
        for (int card = suit * NRANKS; card < (suit + 1) * NRANKS; card++) {
            if (!(r->deck & bit(card))) continue;
            if (previous >= 0 && r->points[previous] == r->points[card]) {
                r->run_top[card] = r->run_top[previous];
                r->next_in_run[previous] = (int8_t)card;
            } else {
                r->run_top[card] = (int8_t)card;
            }
            previous = card;
        }
    }
}

static void derive_rules(Rules *r, int partnerships)
{
    r->step = r->last_trick;
    for (int card = 0; card < NCARDS; card++)
        if (r->deck & bit(card)) r->step = gcd(r->step, r->points[card]);
    for (int seat = 0; seat < MAXP; seat++) {
        r->side[seat] = seat != 0 && !(partnerships && r->players % 2 == 0 && seat % 2 == 0);
        for (int i = 0; i < MAXP; i++) r->seat_at[seat][i] = (uint8_t)((seat + i) % r->players);
    }
    number_runs(r);
    number_owner_digits(r);
    int ranks = 0;
    memset(r->cheapest, -1, sizeof r->cheapest);
    for (int rank = 0; rank < NRANKS; rank++)
        if (r->deck & bit(rank)) {
            int i = ranks++;
            for (; i > 0 && r->points[r->cheapest[i - 1]] > r->points[rank]; i--) r->cheapest[i] = r->cheapest[i - 1];
            r->cheapest[i] = (int8_t)rank;
        }
    double keys = r->players; /* a digit per card of the deck, then the leader */
    Key weight = 1;
    for (int card = 0; card < NCARDS; card++)
        if (r->deck & bit(card)) {
            r->place[card] = weight;
            weight *= r->radix;
            keys *= r->radix;
        }
    r->leader_weight = weight;
    r->exact_key = keys < 0x1p127;
}

/* --- a position in play ----------------------------------------------------------------- */

typedef struct {
    uint8_t count[MAXP][NCARDS];
    uint16_t owners[NCARDS]; /* the counts of a card per seat as base-5 digits (for keys) */
    uint32_t held[MAXP];  /* cards each seat holds at least one copy of */
    int trump, leader, played;
    int trick[MAXP];      /* the cards on the table, the leader's first */
    int best;             /* the position in `trick` of the card winning it */
    int tricks_left;      /* counting the one in progress */
    int32_t in_hands;     /* the counters still in the hands */
} Game;

static inline int to_play(const Rules *r, const Game *g) { return r->seat_at[g->leader][g->played]; }

/* The seat whose card is winning the trick on the table. */
static inline int winning_seat(const Rules *r, const Game *g) { return r->seat_at[g->leader][g->best]; }

static const uint16_t SEAT_DIGIT[MAXP] = {125, 25, 5, 1};

static void put(const Rules *r, Game *g, int seat, int card)
{
    if (--g->count[seat][card] == 0) g->held[seat] &= ~bit(card);
    g->owners[card] -= SEAT_DIGIT[seat];
    g->in_hands -= r->points[card];
    if (g->played && beats(card, g->trick[g->best], g->trump)) g->best = g->played;
    if (!g->played) g->best = 0;
    g->trick[g->played++] = card;
}

static void take_back(const Rules *r, Game *g, int seat, int card, int best)
{
    g->played--;
    g->best = best;
    g->count[seat][card]++;
    g->owners[card] += SEAT_DIGIT[seat];
    g->held[seat] |= bit(card);
    g->in_hands += r->points[card];
}

/* The cards a seat holding `hand` may play to the trick on the table (play.legal_cards). */
static uint32_t legal_mask(const Rules *r, const Game *g, uint32_t hand)
{
    if (!g->played) return hand;
    int led = suit_of(g->trick[0]), winner = g->trick[g->best];
    int trumped = suit_of(winner) == g->trump && led != g->trump;
    uint32_t follow = hand & suit_cards(led);
    if (follow) {
        int must_head = r->head == HEAD_ALWAYS || (r->head == HEAD_TRUMP_LED && led == g->trump);
        uint32_t higher = follow & above(winner);
        return must_head && !trumped && higher ? higher : follow;
    }
    uint32_t trumps = hand & suit_cards(g->trump);
    if (!trumps) return hand;
    uint32_t higher = trumps & above(winner); /* empty unless a trump is winning */
    return r->overtrump && higher ? higher : trumps;
}

static int32_t trick_points(const Rules *r, const Game *g)
{
    int32_t points = g->tricks_left == 1 ? r->last_trick : 0;
    for (int i = 0; i < g->played; i++) points += r->points[g->trick[i]];
    return points;
}

/* Close a full trick: the winner leads the next. Returns the points seat 0's side gains. */
typedef struct { int leader, best, trick[MAXP]; } Closed;

static int32_t close_trick(const Rules *r, Game *g, Closed *saved)
{
    int winner = winning_seat(r, g);
    int32_t gain = r->side[winner] ? 0 : trick_points(r, g);
    saved->leader = g->leader;
    saved->best = g->best;
    memcpy(saved->trick, g->trick, sizeof saved->trick);
    g->leader = winner;
    g->played = 0;
    g->tricks_left--;
    return gain;
}

static void reopen_trick(const Rules *r, Game *g, const Closed *saved)
{
    g->leader = saved->leader;
    g->best = saved->best;
    memcpy(g->trick, saved->trick, sizeof g->trick);
    g->played = r->players;
    g->tricks_left++;
}

/* --- the transposition table ------------------------------------------------------------ */

/* 32 bytes: a bucket of two entries fills one cache line, so a probe costs one miss at
 * most. Measured against four entries a bucket (two lines; same replacement) on the same
 * positions, builds alternating: nodes +0.0% on single-deck 8-trick endgames, +0.4% on
 * whole deals, +0.2% on double-deck 12-trick ones; time -0.3% and -3% (-29% in a noisier
 * run) and -15 to -19%. */
typedef struct {
    Key key;
    int32_t lower, upper; /* bounds on the points seat 0's side takes from here */
    uint16_t epoch;       /* entries of another search are empty */
    uint8_t move;         /* the best lead found, as a normalised card */
    uint8_t depth;        /* tricks left: deeper entries saved more work */
    uint8_t stamp;        /* when it was written (Table.writes, wrapping): its age */
    uint8_t unused[3];
} Entry;

enum { BUCKET = 2 };

typedef struct {
    Entry *entries;
    void *block; /* the memory allocated, before alignment */
    size_t block_bytes;
    size_t size;   /* entries */
    size_t mask;   /* entries this search uses - 1 */
    uint16_t epoch;
    uint8_t writes; /* entries written, wrapping */
} Table;

/* A position's key and the maps between its cards and the normalised ones. */
typedef struct {
    Key key;
    int8_t normal[NCARDS]; /* card -> normalised card */
    int8_t actual[NCARDS]; /* normalised card -> card, or -1 */
} Normal;

static inline uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* The key is the sum of one term per card in play: the digit of its owners in the place of
 * its normalised card (a mixed-radix number), or for decks too big for that (4 copies of
 * 6 ranks) a 128-bit hash of card and owners. */
static inline Key add_digit(const Rules *r, int normal, unsigned owners)
{
    if (r->exact_key) return r->place[normal] * owners;
    uint64_t h = mix64(((uint64_t)normal << 8 | owners) + 0x9E3779B97F4A7C15ull);
    return (Key)mix64(h) << 64 | h;
}

/* At a trick boundary: within each run of equal counters, the ranks still in play move up
 * to the top of the run (onto the deck's cards of the run, in order); the key is then the
 * owners of every normalised card. The cards are walked in order, so a card's normalised
 * card is the one after the last card's in the same run (measured: counting the bits of the
 * run above each card instead took 9% more time on whole deals). */
static void normalise(const Rules *r, const Game *g, Normal *n)
{
    uint32_t anywhere = 0;
    for (int seat = 0; seat < r->players; seat++) anywhere |= g->held[seat];
    memset(n->actual, -1, sizeof n->actual);
    Key key = r->exact_key ? r->leader_weight * (unsigned)g->leader : add_digit(r, 0, 100 + g->leader);
    int top = -1, normal = -1; /* the run of the last card, and its normalised card */
    for (uint32_t set = anywhere; set; set &= set - 1) {
        int card = __builtin_ctz(set); /* from the top of each suit down: runs come whole */
        if (r->run_top[card] != top) top = normal = r->run_top[card];
        else normal = r->next_in_run[normal]; /* a run has as many cards as it has in play */
        n->normal[card] = (int8_t)normal;
        n->actual[normal] = (int8_t)card;
        key += add_digit(r, normal, r->digit[g->owners[card]]);
    }
    n->key = key;
}

static Entry *bucket_of(const Table *t, Key key)
{
    uint64_t h = mix64((uint64_t)key ^ mix64((uint64_t)(key >> 64)));
    return &t->entries[h & t->mask & ~(size_t)(BUCKET - 1)];
}

static Entry *probe(const Table *t, Key key)
{
    Entry *b = bucket_of(t, key);
    for (int i = 0; i < BUCKET; i++)
        if (b[i].epoch == t->epoch && b[i].key == key) return &b[i];
    return NULL;
}

/* The entry to write `key` to: its own, else one of another search, else the one that
 * saved the least work: the shallowest, of those the oldest (so that positions of one depth
 * take turns over the bucket, not over one slot). Measured against two entries a bucket
 * (the first kept for deeper work, the second always replaced), four entries a bucket then:
 * 4% fewer nodes. */
static Entry *slot_for(Table *t, Key key, int depth, int32_t ceiling)
{
    Entry *b = bucket_of(t, key), *e = NULL;
    int worst = INF;
    for (int i = 0; i < BUCKET; i++) {
        if (b[i].epoch == t->epoch && b[i].key == key) return &b[i];
        int keep = b[i].epoch != t->epoch ? -1 : b[i].depth * 256 + ((b[i].stamp - t->writes) & 255);
        if (keep < worst) worst = keep, e = &b[i];
    }
    e->key = key;
    e->epoch = t->epoch;
    e->depth = (uint8_t)depth;
    e->stamp = t->writes++;
    e->lower = 0;
    e->upper = ceiling;
    e->move = NO_MOVE;
    return e;
}

/* Zeroed memory for the table, aligned for huge pages where the system has them: a large
 * table is probed at random, and with 4 KB pages each probe would also miss the TLB. The
 * kernel zeroes pages on first touch, so a process pays only for the part it uses. */
#if defined(__linux__) && defined(MADV_HUGEPAGE)
enum { HUGE_PAGE = 2 << 20 };

static void *table_memory(Table *t, size_t bytes)
{
    t->block_bytes = bytes + HUGE_PAGE;
    t->block = mmap(NULL, t->block_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (t->block == MAP_FAILED) return t->block = NULL;
    uintptr_t start = ((uintptr_t)t->block + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    madvise((void *)start, bytes, MADV_HUGEPAGE); /* advice only: failure is harmless */
    return (void *)start;
}

static void table_free(Table *t)
{
    if (t->block) munmap(t->block, t->block_bytes);
}
#else
static void *table_memory(Table *t, size_t bytes)
{
    t->block = calloc(bytes + 64, 1);
    return t->block ? (void *)(((uintptr_t)t->block + 63) & ~(uintptr_t)63) : NULL;
}

static void table_free(Table *t) { free(t->block); }
#endif

static int table_init(Table *t, int bits)
{
    size_t entries = (size_t)1 << bits;
    t->entries = table_memory(t, entries * sizeof(Entry));
    if (!t->entries) return -1;
    t->size = entries;
    t->mask = entries - 1;
    t->epoch = 0;
    return 0;
}

/* A new search: the entries of earlier ones become empty. A short endgame uses only the
 * start of the table: a few thousand entries stay in the cache, where scattering them over
 * the whole table would cost a cache (and TLB) miss each. */
static void table_new_epoch(Table *t, int tricks)
{
    if (++t->epoch == 0) {
        memset(t->entries, 0, t->size * sizeof(Entry));
        t->epoch = 1;
    }
    int bits = 8 + 3 * tricks / 2; /* measured: 4 tricks fit 2^14 entries, 8 tricks 2^20 */
    size_t used = bits < 40 ? (size_t)1 << bits : t->size;
    t->mask = (used < t->size ? used : t->size) - 1;
}

/* --- the search ------------------------------------------------------------------------- */

/* Why a search stopped before its end: it did not (0), its time ran out, or a signal
 * handler raised an exception (Ctrl-C's KeyboardInterrupt; the CLI's handlers end the
 * process there and then). */
enum { RUNNING = 0, OUT_OF_TIME = 1, SIGNALLED = 2 };

/* How often a search looks at the clock (nodes, a power of two: about 0.2 ms) and at
 * pending signals (seconds: each look takes the GIL back for a moment). */
enum { POLL_NODES = 1 << 10 };
#define SIGNAL_SECONDS 0.02

typedef struct {
    const Rules *r;
    Table *t;
    uint64_t nodes;
    /* the lead that last settled a search, by tricks left and seat (a "killer") */
    int8_t killer[NCARDS * MAXCOPIES + 1][MAXP];
    /* stopping early: once `stop` is set every node returns at once, nothing more is
     * written to the table, and the caller discards what the search returns */
    double deadline;       /* monotonic seconds; 0: none */
    double next_signals;   /* when to look at pending signals next */
    PyThreadState *thread; /* saved while the search runs without the GIL; NULL: signals are
                              not looked at (only the main thread runs Python's handlers) */
    int stop;
} Search;

static Search new_search(const Rules *r, Table *t)
{
    Search s = {r, t, 0, {{0}}, 0, 0, NULL, RUNNING};
    memset(s.killer, -1, sizeof s.killer);
    return s;
}

static double monotonic_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + now.tv_nsec * 1e-9;
}

/* Every POLL_NODES nodes: stop when the time is out, or when a signal handler raised
 * (PyErr_CheckSignals runs Python's handlers; it needs the GIL, taken back briefly). */
static void poll_stop(Search *s)
{
    double now = monotonic_seconds();
    if (s->deadline && now >= s->deadline) {
        s->stop = OUT_OF_TIME;
        return;
    }
    if (s->thread && now >= s->next_signals) {
        s->next_signals = now + SIGNAL_SECONDS;
        PyEval_RestoreThread(s->thread);
        int raised = PyErr_CheckSignals() < 0;
        s->thread = PyEval_SaveThread();
        if (raised) s->stop = SIGNALLED;
    }
}

/* The cards of `legal` worth trying: of cards alike (same suit and counter, no card of
 * another seat or on the table ranked between or equal to them) only the highest. */
static uint32_t distinct_moves(const Rules *r, const Game *g, int seat, uint32_t legal)
{
    uint32_t elsewhere = 0;
    for (int other = 0; other < r->players; other++)
        if (other != seat) elsewhere |= g->held[other];
    for (int i = 0; i < g->played; i++) elsewhere |= bit(g->trick[i]);
    uint32_t moves = legal;
    int higher = -1; /* the previous legal card, walking from the top */
    for (uint32_t set = legal; set; set &= set - 1) {
        int card = __builtin_ctz(set);
        uint32_t between = higher >= 0 ? (bit(card) << 1) - bit(higher) : 0;
        int alike = higher >= 0 && suit_of(higher) == suit_of(card) &&
                    r->points[higher] == r->points[card] && !(elsewhere & between);
        if (alike) moves &= ~bit(card); /* plays like `higher`, or the card `higher` is like */
        higher = card;
    }
    return moves;
}

/* Whether `card` is the highest of its suit still in play and nobody else holds its twin. */
static inline int is_top(uint32_t elsewhere, int card)
{
    return !(elsewhere & (above(card) | bit(card)));
}

/* Of `cards`, the one with the most (or, with sign -1, the fewest) points; the highest
 * card of those when feeding points, the lowest when keeping them back. */
static int by_points(const Rules *r, uint32_t cards, int sign)
{
    int chosen = -1;
    int32_t best = -INF;
    for (; cards; cards &= cards - 1) {
        int card = __builtin_ctz(cards);
        int32_t key = sign * r->points[card];
        if (key > best || (key == best && sign < 0)) {
            best = key;
            chosen = card;
        }
    }
    return chosen;
}

/* What a simple player would play here: feed points to a partner sure to win; else win the
 * trick if possible (with the most points in last seat, else with the highest card); else
 * throw the least. */
static int simple_card(const Rules *r, const Game *g, int seat)
{
    uint32_t legal = legal_mask(r, g, g->held[seat]), later = 0;
    int winner = g->trick[g->best], last = g->played == r->players - 1;
    uint32_t winning = legal & beating(winner, g->trump);
    for (int i = g->played + 1; i < r->players; i++) later |= g->held[r->seat_at[g->leader][i]];
    int ours = r->side[winning_seat(r, g)] == r->side[seat];
    if (ours && (last || is_top(later, winner))) return by_points(r, legal, 1);
    if (winning) return last ? by_points(r, winning, 1) : __builtin_ctz(winning);
    return by_points(r, legal, -1);
}

/* Far from the end, a lead is judged beyond its trick too: by what the table already knows
 * of the position after it. Measured: at 6 tricks or more the look-ups pay for themselves
 * (13% fewer nodes on whole deals, 7% less time); nearer the end they cost more than they
 * save. */
enum { LOOK_BEYOND_TRICKS = 6 };

/* The points `seat`'s side can expect from the full trick on the table to the end: the
 * trick's points if it wins it, plus the middle of the table's bounds on the rest (half of
 * what remains when the table has no entry). In two halves: the start finds the key of the
 * position after the trick and fetches its bucket, the finish reads it once every lead has
 * been started, so that the leads' cache misses overlap. Measured: 1% less time. */
typedef struct {
    Key key;
    int32_t trick, ours, rest; /* the trick's points, seat 0's side's gain, the points left */
} Outlook;

static void outlook_start(const Rules *r, const Table *t, Game *g, Outlook *o)
{
    o->trick = trick_points(r, g);
    Closed saved;
    o->ours = close_trick(r, g, &saved);
    o->rest = g->in_hands + r->last_trick;
    Normal n;
    normalise(r, g, &n);
    o->key = n.key;
    __builtin_prefetch(bucket_of(t, n.key));
    reopen_trick(r, g, &saved);
}

static int32_t outlook_finish(const Rules *r, const Table *t, int seat, const Outlook *o)
{
    Entry *e = probe(t, o->key);
    int32_t ours = o->ours + (e ? (e->lower + e->upper) / 2 : o->rest / 2);
    return r->side[seat] == 0 ? ours : o->trick + o->rest - ours;
}

/* Three tricks from the end a follow (not the trick's last card) is scored without playing the
 * trick out: whether the trick ends with `seat`'s side is judged from whether a later seat
 * of the other side (or of its own, when the other side is winning) holds a card that would
 * beat the winner after `card` (of the suit led, or a trump when void in it). Sure tricks
 * are fed points, others are given the fewest. Measured against the simple players' finish:
 * nodes +0.4% on single-deck 8-trick endgames, +0.2% on whole deals, +0.1% on double-deck
 * 12-trick ones; nearer the root the finish pays (static follows from 4 tricks: +1.5% nodes
 * on 8-trick endgames; from every trick: +11%, and no faster). */
enum { STATIC_FOLLOW_TRICKS = 3 };

static int follow_score(const Rules *r, const Game *g, int seat, int card)
{
    int wins = beats(card, g->trick[g->best], g->trump);
    int best = wins ? card : g->trick[g->best], led = suit_of(g->trick[0]);
    int ours = wins || r->side[winning_seat(r, g)] == r->side[seat];
    int32_t points = r->points[card];
    for (int i = 0; i < g->played; i++) points += r->points[g->trick[i]];
    int turns = 0; /* a later seat would turn the trick around */
    for (int i = g->played + 1; i < r->players && !turns; i++) {
        int other = r->seat_at[g->leader][i];
        uint32_t hand = g->held[other], follow = hand & suit_cards(led);
        uint32_t over = (follow ? follow : hand) & beating(best, g->trump);
        turns = over && (r->side[other] == r->side[seat]) != ours;
    }
    int32_t score = ours && !turns ? points + 1 : !ours && turns ? 0 : -points;
    if (!ours || turns) score -= r->points[card]; /* keep counters back from a lost trick */
    return score * 16 + card % NRANKS;
}

/* How promising `card` is (higher first): the trick finished by simple players, scored by
 * the points it brings the side of the seat that plays it, or by the outlook for leads far
 * from the end (started in *o: the caller adds 16 times its finish). Lower cards first among
 * equals. */
static int move_score(const Rules *r, const Table *t, Game *g, int seat, int card, Outlook *o)
{
    if (g->played == r->players - 1) { /* the trick's last card: its score without playing */
        int winner = beats(card, g->trick[g->best], g->trump) ? seat : winning_seat(r, g);
        int32_t points = 1 + r->points[card];
        for (int i = 0; i < g->played; i++) points += r->points[g->trick[i]];
        if (r->side[winner] != r->side[seat]) points = -points;
        return points * 16 + card % NRANKS; /* measured: 2.5% less time on whole deals */
    }
    if (g->played && g->tricks_left <= STATIC_FOLLOW_TRICKS) return follow_score(r, g, seat, card);
    int best = g->best, plays = 1, seats[MAXP], cards[MAXP], bests[MAXP];
    int leading = !g->played;
    seats[0] = seat, cards[0] = card, bests[0] = best;
    put(r, g, seat, card);
    while (g->played < r->players) {
        int next = to_play(r, g);
        seats[plays] = next, cards[plays] = simple_card(r, g, next), bests[plays] = g->best;
        put(r, g, next, cards[plays++]);
    }
    int32_t points = 0;
    if (leading && g->tricks_left >= LOOK_BEYOND_TRICKS) {
        outlook_start(r, t, g, o);
    } else {
        int winner = winning_seat(r, g);
        points = 1 + trick_points(r, g) - (g->tricks_left == 1 ? r->last_trick : 0);
        if (r->side[winner] != r->side[seat]) points = -points;
    }
    while (plays--) take_back(r, g, seats[plays], cards[plays], bests[plays]);
    return points * 16 + card % NRANKS;
}

/* The distinct legal cards of `seat` but `first` (tried already), most promising first. */
static int ordered_moves(const Rules *r, const Table *t, Game *g, int seat, int first, int *moves)
{
    uint32_t legal = legal_mask(r, g, g->held[seat]);
    uint32_t set = distinct_moves(r, g, seat, legal);
    int cards[NCARDS], scores[NCARDS], count = 0, n = 0;
    if (first >= 0) set &= ~bit(first);
    for (; set; set &= set - 1) cards[count++] = __builtin_ctz(set);
    if (count > 1) {
        Outlook looks[NCARDS];
        for (int k = 0; k < count; k++) scores[k] = move_score(r, t, g, seat, cards[k], &looks[k]);
        if (!g->played && g->tricks_left >= LOOK_BEYOND_TRICKS)
            for (int k = 0; k < count; k++) scores[k] += 16 * outlook_finish(r, t, seat, &looks[k]);
    } else {
        scores[0] = 0;
    }
    for (int k = 0; k < count; k++) {
        int score = scores[k], i = n++;
        for (; i > 0 && scores[i - 1] < score; i--) {
            scores[i] = scores[i - 1];
            moves[i] = moves[i - 1];
        }
        scores[i] = score;
        moves[i] = cards[k];
    }
    return n;
}

/* The last trick: every seat holds one card and must play it. */
static int32_t last_trick_value(const Rules *r, Game *g)
{
    int32_t points = r->last_trick;
    int best = -1, winner = 0;
    for (int i = 0; i < r->players; i++) {
        int seat = r->seat_at[g->leader][i];
        int card = __builtin_ctz(g->held[seat]);
        points += r->points[card];
        if (best < 0 || beats(card, best, g->trump)) {
            best = card;
            winner = seat;
        }
    }
    return r->side[winner] ? 0 : points;
}

static int32_t node(Search *s, Game *g, int32_t alpha, int32_t beta);

static inline int improves(int maximising, int32_t value, int32_t best)
{
    return maximising ? value > best : value < best;
}

/* Whether `best` already settles a search of the window (alpha, beta). */
static inline int cuts(int maximising, int32_t best, int32_t alpha, int32_t beta)
{
    return maximising ? best >= beta : best <= alpha;
}

/* Two tricks left: a plain fail-soft search of the first (the last is forced), with no
 * table, no ordering and no card merging: cheaper than any of them at this size. */
static int32_t two_tricks(const Rules *r, Game *g, int32_t alpha, int32_t beta)
{
    if (g->played == r->players) {
        Closed saved;
        int32_t gain = close_trick(r, g, &saved);
        int32_t value = gain + last_trick_value(r, g);
        reopen_trick(r, g, &saved);
        return value;
    }
    int seat = to_play(r, g), maximising = r->side[seat] == 0, best_before = g->best;
    int32_t best = maximising ? -INF : INF;
    for (uint32_t set = legal_mask(r, g, g->held[seat]); set; set &= set - 1) {
        int card = __builtin_ctz(set);
        put(r, g, seat, card);
        int32_t value = two_tricks(r, g, alpha, beta);
        take_back(r, g, seat, card, best_before);
        if (improves(maximising, value, best)) best = value;
        if (cuts(maximising, best, alpha, beta)) break;
        if (maximising && best > alpha) alpha = best;
        if (!maximising && best < beta) beta = best;
    }
    return best;
}

/* Play `card` from `seat` and search on: the value of the position after it. */
static int32_t after(Search *s, Game *g, int seat, int card, int32_t alpha, int32_t beta)
{
    const Rules *r = s->r;
    int best = g->best;
    int32_t value;
    put(r, g, seat, card);
    if (g->played == r->players) {
        Closed saved;
        int32_t gain = close_trick(r, g, &saved);
        value = gain + node(s, g, alpha - gain, beta - gain);
        reopen_trick(r, g, &saved);
    } else {
        value = node(s, g, alpha, beta);
    }
    take_back(r, g, seat, card, best);
    return value;
}

/* Move `card`, if among `moves` below the top one, to the second place. */
static void try_second(int *moves, int count, int card)
{
    for (int i = 2; i < count; i++)
        if (moves[i] == card) {
            memmove(moves + 2, moves + 1, (size_t)(i - 1) * sizeof *moves);
            moves[1] = card;
            return;
        }
}

/* `card`'s value in the window (alpha, beta), `best` being the best of the cards tried
 * before it: with a window wider than a point, a null-window probe first whether it beats
 * `best`, and a search of the window left only when it does (principal-variation search). */
static int32_t scouted(Search *s, Game *g, int seat, int card, int32_t best, int32_t alpha,
                       int32_t beta)
{
    if (beta - alpha <= 1) return after(s, g, seat, card, alpha, beta);
    if (s->r->side[seat] == 0) {
        int32_t bar = best > alpha ? best : alpha;
        int32_t value = after(s, g, seat, card, bar, bar + 1);
        return value > bar && value < beta && !s->stop ? after(s, g, seat, card, value - 1, beta) : value;
    }
    int32_t bar = best < beta ? best : beta;
    int32_t value = after(s, g, seat, card, bar - 1, bar);
    return value < bar && value > alpha && !s->stop ? after(s, g, seat, card, alpha, value + 1) : value;
}

/* The best of the seat to play's cards, `first` tried first (if any), stopping at the
 * first that settles the search of the window (alpha, beta). Sets *best_move. */
static int32_t best_card(Search *s, Game *g, int first, int32_t alpha, int32_t beta, int *best_move)
{
    const Rules *r = s->r;
    int seat = to_play(r, g), maximising = r->side[seat] == 0;
    int32_t best = maximising ? -INF : INF;
    *best_move = first;
    if (first >= 0) best = after(s, g, seat, first, alpha, beta); /* often all it takes */
    if (s->stop || cuts(maximising, best, alpha, beta)) return best;
    int moves[NCARDS], count = ordered_moves(r, s->t, g, seat, first, moves);
    int8_t *killer = g->played ? NULL : &s->killer[g->tricks_left][seat];
    if (killer) try_second(moves, count, *killer);
    for (int i = 0; i < count; i++) {
        int32_t value = first < 0 && i == 0 ? after(s, g, seat, moves[i], alpha, beta)
                                            : scouted(s, g, seat, moves[i], best, alpha, beta);
        if (s->stop) return best;
        if (improves(maximising, value, best)) {
            best = value;
            *best_move = moves[i];
        }
        if (cuts(maximising, best, alpha, beta)) {
            if (killer) *killer = (int8_t)moves[i];
            break;
        }
    }
    return best;
}

/* The points of `sure` (cards no other side holds) in the hands. */
static int32_t points_held(const Rules *r, const Game *g, uint32_t sure)
{
    int32_t points = 0;
    for (; sure; sure &= sure - 1) {
        int card = __builtin_ctz(sure), copies = 0;
        for (int seat = 0; seat < r->players; seat++) copies += g->count[seat][card];
        points += copies * r->points[card];
    }
    return points;
}

/* The cards of `cards` (a mask) that `seat` holds, every copy counted. */
static inline int copies_held(const Game *g, int seat, uint32_t cards)
{
    int copies = 0;
    for (uint32_t set = g->held[seat] & cards; set; set &= set - 1)
        copies += g->count[seat][__builtin_ctz(set)];
    return copies;
}

/* The fewest points `seat` can give up with `tricks` cards of the suits in `suits` (a mask
 * of suits): its cheapest ones, all of them if it holds fewer. */
static int32_t cheapest(const Rules *r, const Game *g, int seat, unsigned suits, int tricks)
{
    int32_t points = 0;
    for (int i = 0; i < NRANKS && tricks > 0 && r->cheapest[i] >= 0; i++)
        for (int suit = 0; suit < NSUITS && tricks > 0; suit++) {
            if (!(suits & (1u << suit))) continue;
            int card = suit * NRANKS + r->cheapest[i];
            int copies = g->count[seat][card] < tricks ? g->count[seat][card] : tricks;
            points += copies * r->points[card];
            tricks -= copies;
        }
    return points;
}

/* Points each side is sure of: its trumps that no trump of the other side beats (nor ties,
 * as the first of two identical cards wins). A trump always contends for its trick (a seat
 * out of the suit led must trump), so these fall to their side whenever they are played.
 *
 * The tricks they win take a card from every seat of the other side too (bridge solvers'
 * "later tricks"): a seat plays one card to a trick, so those tricks are at least as many
 * as the sure trumps one seat of their side holds, and each seat of the other side gives
 * up its cheapest cards to them at the least. Only one side can hold sure trumps (the
 * highest trump in play is one side's). Sets *later to the points of those cards, and
 * *later_side to that side (-1: none). Measured: nodes -10.5% on three-handed 11-trick
 * endgames, -4.6% on cutthroat 12-trick ones, -0.5% to -1.1% on single- and double-deck
 * ones of 8 to 12 tricks. */
static void sure_points(const Rules *r, const Game *g, int32_t *ours, int32_t *theirs, int32_t *later,
                        int *later_side)
{
    uint32_t trumps = suit_cards(g->trump), side[2] = {0, 0};
    for (int seat = 0; seat < r->players; seat++) side[r->side[seat]] |= g->held[seat] & trumps;
    uint32_t top0 = side[0] & -side[0], top1 = side[1] & -side[1]; /* each side's highest */
    uint32_t sure[2] = {side[0] & (top1 - 1), side[1] & (top0 - 1)}; /* top - 1: all bits when 0 */
    *ours = points_held(r, g, sure[0]);
    *theirs = points_held(r, g, sure[1]);
    *later = 0;
    *later_side = -1;
    int winner = sure[0] ? 0 : sure[1] ? 1 : -1; /* at most one side has sure trumps */
    if (winner < 0) return;
    *later_side = winner;
    int tricks = 0; /* tricks they win at least: a seat plays one card to a trick */
    for (int seat = 0; seat < r->players; seat++) {
        int held = r->side[seat] == winner ? copies_held(g, seat, sure[winner]) : 0;
        if (held > tricks) tricks = held;
    }
    for (int seat = 0; seat < r->players; seat++)
        if (r->side[seat] != winner) *later += cheapest(r, g, seat, 0xFu, tricks);
}

/* Points the side on lead is sure of beyond its trumps: the counters of the leader's top
 * cards in the other suits, which it can cash one after another. A card led wins its trick
 * when no card above it is in play (an identical card does not beat it), and the leader
 * keeps the lead while no other seat can trump: each either holds no trumps or must follow
 * the suit led (every rule switch makes a seat follow when it can). Partners count too: one
 * that trumps wins the trick for the side but takes the lead. A seat with trumps follows as
 * many leads of a suit as it holds cards of it, and following takes nothing from its other
 * suits, so the suits add up. The leader's trumps are left to sure_points
 * (which counts them whenever they are played), so nothing is counted twice. Measured: 2.7%
 * fewer nodes on whole deals.
 *
 * What the other seats play to those tricks counts for the leader's side too, and some of
 * it is forced: see cheapest_follows.
 *
 * Sets *every_trick when those cards and the leader's top trumps (those no other card
 * outranks, counted as the plain suits' are) are all the leader holds: cashing the plain
 * suits first and then the trumps, it wins every trick left (the plain suits' leads are
 * followed as above, and a top trump led wins whatever falls), so its side takes every
 * point still in play. Measured: nodes -1.7% on single-deck 8-trick endgames, -4.6% on
 * three-handed 12-trick, -1.7% on cutthroat 13-trick ones, -0.5% on whole deals. */

/* The fewest points `seat` can give to `tricks` leads of `suit` the leader cashes: its
 * cheapest cards of the suit, as many as there are leads (all of them if fewer). Proof: a
 * seat holding the suit led must follow it (under every rule switch), with some card of the
 * suit, and every card played to a cashed trick falls to the leader's side. A seat void in
 * the suit discards instead; it holds no trumps (or the suit would not be cashed), and a card
 * it discards of another suit lands in a trick of the leader's as well: a suit's cards that
 * leave a seat early to another suit's cashes still fall to the leader, so each suit gives at
 * least its own bound whatever the order the suits are cashed in, and the bounds of the
 * suits (each counting only its own cards, none a trump) add up. Measured: nodes on
 * three-handed endgames of 11 and 12 tricks -36% and -17%, cutthroat 13 tricks -13%,
 * double-deck 10 tricks -2%, single-deck whole deals and 8 tricks -1%. */
static inline int32_t cheapest_follows(const Rules *r, const Game *g, int seat, int suit, int tricks)
{
    return cheapest(r, g, seat, 1u << suit, tricks);
}

static int32_t quick_points(const Rules *r, const Game *g, int *every_trick)
{
    int leader = g->leader;
    uint32_t trumps = suit_cards(g->trump), others = 0;
    for (int seat = 0; seat < r->players; seat++)
        if (seat != leader) others |= g->held[seat];
    int32_t points = 0;
    int winners = 0; /* tricks the leader is sure to win one after another */
    for (int suit = 0; suit < NSUITS; suit++) {
        if (suit == g->trump) continue;
        uint32_t cards = suit_cards(suit);
        uint32_t run = g->held[leader] & cards;
        if (!run) continue;
        int follows = INF; /* leads of this suit every other seat with trumps follows */
        for (int seat = 0; seat < r->players; seat++) {
            if (seat == leader || !(g->held[seat] & trumps)) continue;
            int held = copies_held(g, seat, cards);
            if (held < follows) follows = held;
        }
        /* the leader's cards from the top of the suit down, while nothing else outranks them */
        int cashed = 0;
        for (uint32_t set = (g->held[leader] | others) & cards; set && follows > 0; set &= set - 1) {
            int card = __builtin_ctz(set);
            if (!(g->held[leader] & bit(card))) break;
            int led = g->count[leader][card] < follows ? g->count[leader][card] : follows;
            points += led * r->points[card];
            follows -= led;
            cashed += led;
            if (others & bit(card)) break; /* an identical card elsewhere beats those below */
        }
        for (int seat = 0; seat < r->players; seat++)
            if (seat != leader) points += cheapest_follows(r, g, seat, suit, cashed);
        winners += cashed;
    }
    for (uint32_t set = (g->held[leader] | others) & trumps; set; set &= set - 1) {
        int card = __builtin_ctz(set);
        if (!(g->held[leader] & bit(card))) break;
        winners += g->count[leader][card];
        if (others & bit(card)) break; /* an identical card elsewhere beats those below */
    }
    *every_trick = winners >= g->tricks_left;
    return points;
}

/* A trick boundary with three tricks or more left: what the table knows, else a search
 * whose result the table keeps. */
static int32_t boundary(Search *s, Game *g, int32_t alpha, int32_t beta)
{
    int32_t ceiling = g->in_hands + s->r->last_trick; /* every point still in play */
    if (ceiling <= alpha) return ceiling;
    if (beta <= 0) return 0;
    /* The key first, and its bucket fetched while the bounds are worked out: the table is
     * far bigger than the cache. Measured: 2% less time on whole deals. */
    Normal n;
    normalise(s->r, g, &n);
    __builtin_prefetch(bucket_of(s->t, n.key));
    int32_t ours, theirs, later; /* measured: 2.5-5% fewer nodes */
    int every_trick, later_side, leaders = s->r->side[g->leader];
    sure_points(s->r, g, &ours, &theirs, &later, &later_side);
    int32_t quick = quick_points(s->r, g, &every_trick);
    if (every_trick) return leaders ? 0 : ceiling;
    int32_t more[2] = {0, 0};
    more[leaders] = quick;
    /* the cards the leader's cashes take from the other seats may be those of `later` */
    if (later_side >= 0) more[later_side] = later_side == leaders && quick > later ? quick : later;
    ours += more[0];
    theirs += more[1];
    int32_t lower = ours, upper = ceiling - theirs; /* the value lies in [lower, upper] */
    int first = -1, best_move;
    Entry *e = probe(s->t, n.key);
    if (e) {
        if (e->lower > lower) lower = e->lower;
        if (e->upper < upper) upper = e->upper;
        if (e->move != NO_MOVE) first = n.actual[e->move];
    }
    if (lower >= beta || lower == upper) return lower;
    if (upper <= alpha) return upper;
    /* a window no wider than the bounds: a result at its edge is still a bound */
    if (lower - 1 > alpha) alpha = lower - 1;
    if (upper + 1 < beta) beta = upper + 1;
    int32_t best = best_card(s, g, first, alpha, beta, &best_move);
    if (s->stop) return best; /* not a bound: never stored */
    e = slot_for(s->t, n.key, g->tricks_left, ceiling);
    if (best > alpha && best > e->lower) e->lower = best;
    if (best < beta && best < e->upper) e->upper = best;
    e->move = (uint8_t)n.normal[best_move];
    return best;
}

/* Fail-soft alpha-beta search of the window (alpha, beta): a result >= beta is a lower
 * bound of the value (the points seat 0's side takes from here, those on the table
 * included), a result <= alpha an upper bound, one between them the value. A null window
 * (beta = alpha + 1) asks only whether the value reaches beta. */
static int32_t node(Search *s, Game *g, int32_t alpha, int32_t beta)
{
    if (!(++s->nodes & (POLL_NODES - 1))) poll_stop(s);
    if (s->stop) return 0;
    int best_move;
    if (g->played) return best_card(s, g, -1, alpha, beta, &best_move);
    switch (g->tricks_left) {
    case 0: return 0;
    case 1: return last_trick_value(s->r, g);
    case 2: return two_tricks(s->r, g, alpha, beta);
    default: return boundary(s, g, alpha, beta);
    }
}

/* The null-window search at `beta`: whether the value reaches it. */
static inline int32_t scout(Search *s, Game *g, int32_t beta) { return node(s, g, beta - 1, beta); }

/* --- root drivers ----------------------------------------------------------------------- */

static int32_t points_in_play(const Rules *r, const Game *g)
{
    int32_t total = g->in_hands + (g->tricks_left ? r->last_trick : 0);
    for (int i = 0; i < g->played; i++) total += r->points[g->trick[i]];
    return total;
}

/* The null-window search of the position after `card` at `beta`. */
static int32_t probe_after(Search *s, Game *g, int seat, int card, int32_t beta)
{
    return after(s, g, seat, card, beta - 1, beta);
}

/* The position's value: one search of the whole range of points (principal-variation
 * search below the root). It replaced halving the range with null-window probes, each of
 * which must refute every card on one side of its bar; measured on the same seeded
 * positions, values equal, nodes: single-deck whole deals -15.8%, 8 tricks -13.6%;
 * double-deck 10 tricks +9.4%, 12 tricks -25.3%; three-handed 11 tricks +0.4%, 13 tricks
 * -34.2%; cutthroat 12 tricks -25.2%, 14 tricks +21.5% (6 positions). A full window
 * searched without the null-window probes of principal-variation search cost +4.5% to
 * +30% nodes more on most of these. MTD(f) (null-window probes walking from a first guess,
 * each to the bound the last one returned) pays only with a guess near the value: from the
 * value itself, the strong hand's slowest review's first position (bench/review.py
 * --strong 0) took 124M nodes where this takes 191M, from 15 below it 187M, from the top of
 * the range 161M (and 158M where this takes 230M for --strong 21); but from the top, 30
 * random whole deals took +36% nodes, 8-trick endgames +14%, double-deck 12 tricks -11%,
 * three-handed 11 and cutthroat 12 +2-3%, and the deal as played guesses low (120 where the
 * value is 135). */
static int32_t game_value(Search *s, Game *g)
{
    if (s->r->step == 0) return 0; /* no counters, no bonus */
    return node(s, g, -1, points_in_play(s->r, g) + 1);
}

/* The value of the position after `card`, the position's value being `value`: one probe
 * settles a card as good as the best, which most are; the others are searched over the
 * range that probe leaves them, below `value` for seat 0's side, above it for the
 * defenders. Measured against bisecting every card over the whole range: two reviewed
 * deals 12-13 s -> 5-8 s; the search of that range against probes walking in from its
 * edge: whole reviews of 30 single-deck deals -3.3% nodes, of 5 double-deck deals' last 10
 * tricks -6%, the same values. */
static int32_t card_value(Search *s, Game *g, int seat, int card, int32_t value, int32_t hi)
{
    if (s->r->side[seat] == 0) {
        int32_t bound = probe_after(s, g, seat, card, value);
        return bound >= value ? value : after(s, g, seat, card, -1, bound + 1);
    }
    int32_t bound = probe_after(s, g, seat, card, value + s->r->step);
    return bound < value + s->r->step ? value : after(s, g, seat, card, bound - 1, hi + 1);
}

/* The position's value when the table knows nothing of its deal yet and `card`'s value
 * must be exact anyway (the first position of a review): that card's value first, over its
 * own subtree, then one probe of the position just past it says whether another card does
 * better; only then is the rest of the range searched. Searching the position first
 * would refute every card on both sides of its value. Sets *priced to the card's value.
 * Measured (bench/review.py, whole reviews, with ranges then halved by null-window
 * probes): nodes -4.8% on 30 single-deck policy deals (-22% to +17% a deal), -5.3% on 10
 * random-play ones, -18% on 5 double-deck deals' last 10 tricks. */
static int32_t value_through(Search *s, Game *g, int seat, int card, int32_t *priced)
{
    int32_t step = s->r->step, hi = points_in_play(s->r, g), bound;
    int32_t value = *priced = after(s, g, seat, card, -1, hi + 1);
    if (s->r->side[seat] == 0) {
        bound = value < hi ? scout(s, g, value + step) : value;
        return bound < value + step ? value : node(s, g, bound - 1, hi + 1);
    }
    bound = value > 0 ? scout(s, g, value) : value;
    return bound >= value ? value : node(s, g, -1, bound + 1);
}

/* The card searched for `card`: itself, or the nearest searched one above it in its suit
 * (cards alike play alike). */
static int searched_twin(uint32_t searched, int card)
{
    while (!(searched & bit(card))) card--;
    return card;
}

/* `value` if `card` is as good as the best card, else the bound one probe finds beyond it
 * (below `value` for seat 0's side, above it for the defenders): not its exact value. */
static int32_t card_bound(Search *s, Game *g, int seat, int card, int32_t value)
{
    if (s->r->side[seat] == 0) {
        int32_t bound = probe_after(s, g, seat, card, value);
        return bound >= value ? value : bound;
    }
    int32_t bound = probe_after(s, g, seat, card, value + s->r->step);
    return bound < value + s->r->step ? value : bound;
}

/* A card that card_values did not compare with the card played (see there). */
enum { NOT_COMPARED = -2 };

/* The value after each legal card of the seat to play (-1 for the others); returns the
 * position's value. Cards alike share the value of the one searched. With `played` a legal
 * card (a review, which prices only the card played), the other cards are only told apart
 * as optimal (the position's value) or not (a bound beyond it, not their exact value), and
 * without `compare` not even that when the card played is optimal itself: they are then
 * NOT_COMPARED. Proving a card as good as the best takes a whole proof tree: the strong
 * hand's slowest review (`play --seed 0`) took 835M nodes comparing every card, 419M
 * comparing seat 0's (718M and 363M at its first trick); 30 seeded deals 484M and 421M.
 * `cold`: the table knows nothing of the position's deal. */
static int32_t card_values(Search *s, Game *g, int64_t *out, int played, int cold, int compare)
{
    const Rules *r = s->r;
    int seat = to_play(r, g);
    uint32_t legal = legal_mask(r, g, g->held[seat]);
    uint32_t searched = distinct_moves(r, g, seat, legal);
    int exact = played >= 0 && (legal & bit(played)) ? searched_twin(searched, played) : -1;
    int through = exact >= 0 && r->step && (cold || !compare);
    int32_t priced = -1, hi = points_in_play(r, g);
    int32_t value = through ? value_through(s, g, seat, exact, &priced) : game_value(s, g);
    for (int card = 0; card < NCARDS; card++) out[card] = -1;
    for (uint32_t set = searched; set && !s->stop; set &= set - 1) {
        int card = __builtin_ctz(set);
        if (!r->step) out[card] = 0;
        else if (card == exact && priced >= 0) out[card] = priced;
        else if (exact < 0 || card == exact) out[card] = card_value(s, g, seat, card, value, hi);
        else if (!compare && priced == value) out[card] = NOT_COMPARED;
        else out[card] = card_bound(s, g, seat, card, value);
    }
    for (uint32_t set = legal & ~searched; set; set &= set - 1) {
        int card = __builtin_ctz(set);
        out[card] = out[searched_twin(searched, card)];
    }
    return value;
}

/* Whether `card` keeps the value at `value` (an optimal card). */
static int keeps_value(Search *s, Game *g, int seat, int card, int32_t value)
{
    if (s->r->side[seat] == 0) return probe_after(s, g, seat, card, value) >= value;
    return probe_after(s, g, seat, card, value + 1) < value + 1;
}

/* Play an optimal line to the end, writing (seat, card) pairs; returns the plays written. */
static int optimal_line(Search *s, Game *g, int32_t value, int *seats, int *cards)
{
    const Rules *r = s->r;
    int plays = 0;
    while (g->tricks_left && !s->stop) {
        int seat = to_play(r, g), moves[NCARDS];
        int count = ordered_moves(r, s->t, g, seat, -1, moves), chosen = moves[0];
        for (int i = 0; i < count && r->step; i++)
            if (keeps_value(s, g, seat, moves[i], value)) {
                chosen = moves[i];
                break;
            }
        seats[plays] = seat;
        cards[plays++] = chosen;
        put(r, g, seat, chosen);
        if (g->played == r->players) {
            Closed saved;
            value -= close_trick(r, g, &saved);
        }
    }
    return plays;
}

/* --- reading positions from Python ------------------------------------------------------ */

static int fail(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    PyObject *message = PyUnicode_FromFormatV(format, args);
    va_end(args);
    if (message) {
        PyErr_SetObject(PyExc_ValueError, message);
        Py_DECREF(message);
    }
    return -1;
}

static int parse_rules(PyObject *spec, Rules *r)
{
    PyObject *points;
    int partnerships, ranks;
    memset(r, 0, sizeof *r);
    if (!PyArg_ParseTuple(spec, "iiiipiiO;rules: expected (players, copies, head, overtrump,"
                                " partnerships, last_trick, ranks, counters)",
                          &r->players, &r->copies, &r->head, &r->overtrump, &partnerships,
                          &r->last_trick, &ranks, &points))
        return -1;
    if (r->players < 2 || r->players > MAXP) return fail("rules: expected 2 to 4 players, got %d", r->players);
    if (r->copies < 1 || r->copies > MAXCOPIES) return fail("rules: expected 1 to 4 copies, got %d", r->copies);
    if (r->head < 0 || r->head > 2) return fail("rules: expected head 0, 1 or 2, got %d", r->head);
    if (ranks <= 0 || ranks >= (1 << NRANKS)) return fail("rules: expected a mask of ranks, got %d", ranks);
    PyObject *seq = PySequence_Fast(points, "rules: expected a sequence of 6 counters");
    if (!seq) return -1;
    int bad = PySequence_Fast_GET_SIZE(seq) != NRANKS;
    for (int rank = 0; rank < NRANKS && !bad; rank++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, rank));
        bad = value < 0 || value >= (1 << 20);
        for (int suit = 0; suit < NSUITS; suit++) r->points[suit * NRANKS + rank] = (int32_t)value;
        if (ranks & (1 << rank)) r->deck |= 0x41041u << rank; /* the rank in every suit */
    }
    Py_DECREF(seq);
    if (bad || PyErr_Occurred() || r->last_trick < 0 || r->last_trick >= (1 << 20)) {
        PyErr_Clear();
        return fail("rules: expected 6 counters and a last-trick bonus in 0..2**20-1");
    }
    derive_rules(r, partnerships);
    return 0;
}

/* An int64 buffer of exactly `items` items (a C-contiguous array). */
static int get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t items, int writable, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    const char *format = view->format ? view->format : "B";
    if (*format == '<' || *format == '=' || *format == '@') format++;
    int ok = view->itemsize == 8 && (!strcmp(format, "q") || !strcmp(format, "l"));
    if (!ok || view->len != items * 8) {
        PyBuffer_Release(view);
        return fail("%s: expected %zd int64 values, got %zd bytes of format %s", what, items,
                    view->len, view->format ? view->format : "B");
    }
    return 0;
}

/* Build and check one position: hands (after the cards on the table left them), trump,
 * leader and the cards on the table (-1 past the last). */
static int read_game(const Rules *r, const int64_t *hands, int64_t trump, int64_t leader,
                     const int64_t *trick, Py_ssize_t at, Game *g)
{
    memset(g, 0, sizeof *g);
    if (trump < 0 || trump >= NSUITS) return fail("position %zd: trump %lld is not a suit 0..3", at, (long long)trump);
    if (leader < 0 || leader >= r->players)
        return fail("position %zd: leader %lld is not a seat 0..%d", at, (long long)leader, r->players - 1);
    g->trump = (int)trump;
    g->leader = (int)leader;
    for (int seat = 0; seat < r->players; seat++)
        for (int card = 0; card < NCARDS; card++) {
            int64_t held = hands[seat * NCARDS + card];
            int exist = r->deck & bit(card) ? r->copies : 0;
            if (held < 0 || held > exist)
                return fail("position %zd: seat %d holds %lld of %s; the deck has %d", at, seat,
                            (long long)held, CARD_NAMES[card], exist);
            g->count[seat][card] = (uint8_t)held;
        }
    int played = 0;
    while (played < r->players - 1 && trick && trick[played] >= 0) {
        int64_t card = trick[played];
        if (card >= NCARDS || !(r->deck & bit((int)card)))
            return fail("position %zd: trick card %lld is not in the deck", at, (long long)card);
        g->count[(leader + played) % r->players][card]++; /* back in the hand that played it */
        played++;
    }
    int size = -1;
    for (int seat = 0; seat < r->players; seat++) {
        int cards = 0;
        for (int card = 0; card < NCARDS; card++) cards += g->count[seat][card];
        if (size >= 0 && cards != size)
            return fail("position %zd: seat %d holds %d cards and seat 0 %d, counting the cards "
                        "each played to this trick", at, seat, cards, size);
        size = cards;
        for (int card = 0; card < NCARDS; card++)
            if (g->count[seat][card]) g->held[seat] |= bit(card);
    }
    for (int card = 0; card < NCARDS; card++) {
        int total = 0;
        for (int seat = 0; seat < r->players; seat++) {
            total += g->count[seat][card];
            g->owners[card] += g->count[seat][card] * SEAT_DIGIT[seat];
        }
        if (total > r->copies)
            return fail("position %zd: %d copies of %s in play; the deck has %d", at, total,
                        CARD_NAMES[card], r->copies);
        g->in_hands += total * r->points[card];
    }
    g->tricks_left = size;
    for (int i = 0; i < played; i++) {
        int seat = (g->leader + i) % r->players, card = (int)trick[i];
        if (!(legal_mask(r, g, g->held[seat]) & bit(card)))
            return fail("position %zd: seat %d may not play %s to this trick", at, seat, CARD_NAMES[card]);
        put(r, g, seat, card);
    }
    return 0;
}

/* --- the Solver type -------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Table table;
    uint64_t nodes;
    int busy;
    /* the last position searched: the table still holds what was learnt of it */
    Rules last_rules;
    Game last_game;
} Solver;

/* Whether every seat holds no card in `later` that it did not hold in `earlier`: `later`
 * may be `earlier` played on. */
static int played_on(const Game *earlier, const Game *later)
{
    for (int seat = 0; seat < MAXP; seat++)
        for (int card = 0; card < NCARDS; card++)
            if (later->count[seat][card] > earlier->count[seat][card]) return 0;
    return 1;
}

/* Start a search of `g` under `r`. The table's bounds are those of whole positions at trick
 * boundaries (exact keys), true whatever search found them, so they are kept while the
 * searches stay in one deal under one trump: line() after solve() of a position, and the
 * positions of a deal in order (a review), each a part of the one before. Anything else
 * starts a fresh epoch, sized for it, so unrelated positions do not crowd the table.
 * Measured with card_value below: six whole single-deck deals reviewed card by card took
 * 390 s one position at a time, 214 s so. Returns whether the epoch is fresh (the table
 * knows nothing of `g`'s deal). */
static int begin(Solver *self, const Rules *r, const Game *g)
{
    int same = self->table.epoch != 0 && !memcmp(r, &self->last_rules, sizeof *r) &&
               self->last_game.trump == g->trump && played_on(&self->last_game, g);
    if (!same) table_new_epoch(&self->table, g->tricks_left);
    memcpy(&self->last_rules, r, sizeof *r); /* bytes, padding too: what memcmp compares */
    memcpy(&self->last_game, g, sizeof *g);
    return !same;
}

static int Solver_init(Solver *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"table_bits", NULL};
    int bits = 22;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|i", keywords, &bits)) return -1;
    if (bits < 10 || bits > 30) return fail("table_bits: expected 10..30, got %d", bits);
    if (self->table.block) return fail("a Solver is initialised once");
    if (table_init(&self->table, bits) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void Solver_dealloc(Solver *self)
{
    table_free(&self->table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int claim(Solver *self)
{
    if (!self->table.block) return fail("the Solver was not initialised");
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Solver is searching in another thread: use one Solver per thread");
        return -1;
    }
    self->busy = 1;
    return 0;
}

typedef struct {
    Py_buffer hands, trumps, leaders, tricks, values, cards, played, compare;
    int have_tricks, have_cards, have_played, have_compare;
} Buffers;

static void release(Buffers *b)
{
    Py_buffer *views[] = {&b->hands,  &b->trumps, &b->leaders, &b->tricks,
                          &b->values, &b->cards,  &b->played, &b->compare};
    for (size_t i = 0; i < sizeof views / sizeof *views; i++)
        if (views[i]->obj) PyBuffer_Release(views[i]);
}

/* The buffers of solve()'s arguments after the rules: `objs` holds `nobjs` of them (the
 * last two, played and compare, are optional). */
static int get_buffers(PyObject *const *objs, Py_ssize_t nobjs, const Rules *r, Buffers *b,
                       Py_ssize_t *count)
{
    memset(b, 0, sizeof *b);
    if (PyObject_GetBuffer(objs[1], &b->trumps, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    Py_ssize_t n = b->trumps.len / 8;
    PyBuffer_Release(&b->trumps);
    *count = n;
    b->have_tricks = objs[3] != Py_None;
    b->have_cards = objs[5] != Py_None;
    if (get_buffer(objs[1], &b->trumps, n, 0, "trumps") < 0 ||
        get_buffer(objs[0], &b->hands, n * r->players * NCARDS, 0, "hands") < 0 ||
        get_buffer(objs[2], &b->leaders, n, 0, "leaders") < 0 ||
        (b->have_tricks && get_buffer(objs[3], &b->tricks, n * (r->players - 1), 0, "tricks") < 0) ||
        get_buffer(objs[4], &b->values, n, 1, "values") < 0 ||
        (b->have_cards && get_buffer(objs[5], &b->cards, n * NCARDS, 1, "cards") < 0)) {
        release(b);
        return -1;
    }
    b->have_played = nobjs > 6 && objs[6] != Py_None;
    if (b->have_played && (!b->have_cards || get_buffer(objs[6], &b->played, n, 0, "played") < 0)) {
        if (!b->have_cards) PyErr_SetString(PyExc_ValueError, "played needs cards");
        release(b);
        return -1;
    }
    b->have_compare = nobjs > 7 && objs[7] != Py_None;
    if (b->have_compare && (!b->have_played || get_buffer(objs[7], &b->compare, n, 0, "compare") < 0)) {
        if (!b->have_played) PyErr_SetString(PyExc_ValueError, "compare needs played");
        release(b);
        return -1;
    }
    return 0;
}

static int read_position(const Rules *r, const Buffers *b, Py_ssize_t i, Game *g)
{
    const int64_t *hands = (const int64_t *)b->hands.buf + i * r->players * NCARDS;
    const int64_t *trick = b->have_tricks ? (const int64_t *)b->tricks.buf + i * (r->players - 1) : NULL;
    return read_game(r, hands, ((const int64_t *)b->trumps.buf)[i], ((const int64_t *)b->leaders.buf)[i],
                     trick, i, g);
}

/* The exception a search that ran out of time raises: args (message, positions solved). */
static PyObject *TimeLimit;

static int out_of_time(Py_ssize_t solved, Py_ssize_t count)
{
    PyObject *args = Py_BuildValue("(Nn)", PyUnicode_FromFormat("the search ran out of time with "
                                   "%zd of %zd positions solved", solved, count), solved);
    if (args) {
        PyErr_SetObject(TimeLimit, args);
        Py_DECREF(args);
    }
    return -1;
}

/* Whether this thread runs Python's signal handlers (the main thread does): only then is a
 * search worth pausing to look at pending signals. */
static int runs_signal_handlers(void)
{
    PyObject *threading = PyImport_ImportModule("threading"), *main = NULL, *ident = NULL;
    if (threading) main = PyObject_CallMethod(threading, "main_thread", NULL);
    if (main) ident = PyObject_GetAttrString(main, "ident");
    unsigned long id = ident ? PyLong_AsUnsignedLong(ident) : 0;
    int known = ident && !PyErr_Occurred();
    Py_XDECREF(ident);
    Py_XDECREF(main);
    Py_XDECREF(threading);
    PyErr_Clear();
    return !known || id == PyThread_get_thread_ident(); /* unknown: look, to be safe */
}

/* A search of `r`'s positions that stops at `deadline` (0: never) and, in the main thread,
 * on a signal whose handler raises. */
static Search stoppable_search(const Rules *r, Table *t, double deadline, int signals)
{
    Search s = new_search(r, t);
    s.deadline = deadline;
    s.next_signals = signals ? monotonic_seconds() + SIGNAL_SECONDS : 0;
    return s;
}

/* After a search (the GIL held again): 0 if it was not stopped and no signal handler
 * raised since, else -1 with the exception set. */
static int finish(const Search *s, int signals, Py_ssize_t solved, Py_ssize_t count)
{
    if (s->stop == SIGNALLED) return -1; /* the handler's exception is set */
    if (s->stop == OUT_OF_TIME) return out_of_time(solved, count);
    if (signals && PyErr_CheckSignals() < 0) return -1;
    return 0;
}

/* Each position searched without the GIL; signals are looked at during the search (main
 * thread) and between positions, the deadline (0: none) during and between them. */
static int solve_all(Solver *self, const Rules *r, Buffers *b, Py_ssize_t count, double deadline)
{
    Game g;
    int signals = runs_signal_handlers();
    for (Py_ssize_t i = 0; i < count; i++) {
        if (read_position(r, b, i, &g) < 0) return -1;
        if (deadline && monotonic_seconds() >= deadline) return out_of_time(i, count);
        int64_t *values = (int64_t *)b->values.buf + i;
        int64_t *cards = b->have_cards ? (int64_t *)b->cards.buf + i * NCARDS : NULL;
        Search s = stoppable_search(r, &self->table, deadline, signals);
        int cold = begin(self, r, &g);
        int played = b->have_played ? (int)((const int64_t *)b->played.buf)[i] : -1;
        if (played >= NCARDS) played = -1;
        int compare = !b->have_compare || ((const int64_t *)b->compare.buf)[i];
        PyThreadState *thread = PyEval_SaveThread(); /* poll_stop takes it back a moment */
        s.thread = signals ? thread : NULL;
        if (cards && g.tricks_left) *values = card_values(&s, &g, cards, played, cold, compare);
        else {
            if (cards) for (int card = 0; card < NCARDS; card++) cards[card] = -1;
            *values = game_value(&s, &g);
        }
        PyEval_RestoreThread(thread);
        self->nodes += s.nodes;
        if (finish(&s, signals, i, count) < 0) return -1;
    }
    return 0;
}

/* A time limit in seconds (None: none) as a deadline on the monotonic clock (0: none). */
static int read_deadline(PyObject *limit, double *deadline)
{
    *deadline = 0;
    if (limit == Py_None) return 0;
    double seconds = PyFloat_AsDouble(limit);
    if (seconds == -1.0 && PyErr_Occurred()) return -1;
    if (!(seconds >= 0 && seconds < 1e9)) return fail("time_limit: expected seconds from 0 to 1e9, got %R", limit);
    *deadline = monotonic_seconds() + seconds;
    if (*deadline == 0) *deadline = 1e-9; /* 0 means none */
    return 0;
}

PyDoc_STRVAR(solve_doc,
"solve(rules, hands, trumps, leaders, tricks, values, cards, played=None, time_limit=None,\n"
"      compare=None)\n--\n\n"
"Solve N positions. hands: int64 (N, players, 24) counts; trumps, leaders: int64 (N,);\n"
"tricks: int64 (N, players - 1) cards on the table padded with -1, or None; values: writable\n"
"int64 (N,) for the value of each position; cards: writable int64 (N, 24) for the value after\n"
"each legal card of the seat to play (-1 for the others), or None; played (optional): int64\n"
"(N,) a card of each position (-1: none) whose value alone is exact, the other cards' only\n"
"whether they equal the position's value (else a bound beyond it), as a review needs;\n"
"compare (optional, with played): int64 (N,), 0 where the other cards need not be told apart\n"
"when the card played is as good as the best (they are then -2, not compared; default 1);\n"
"time_limit (optional): seconds, after which the search stops and raises TimeLimit with\n"
"args (message, positions solved). A signal whose handler raises (Ctrl-C) stops it too.");

static PyObject *Solver_solve(Solver *self, PyObject *const *args, Py_ssize_t nargs)
{
    Rules r;
    Buffers b;
    Py_ssize_t count;
    double deadline;
    if (nargs < 7 || nargs > 10)
        return PyErr_Format(PyExc_TypeError, "solve() takes 7 to 10 arguments (%zd given)", nargs);
    PyObject *buffers[8] = {args[1], args[2], args[3], args[4], args[5], args[6],
                            nargs > 7 ? args[7] : Py_None, nargs > 9 ? args[9] : Py_None};
    if (read_deadline(nargs > 8 ? args[8] : Py_None, &deadline) < 0 || parse_rules(args[0], &r) < 0 ||
        get_buffers(buffers, 8, &r, &b, &count) < 0)
        return NULL;
    if (claim(self) < 0) {
        release(&b);
        return NULL;
    }
    int status = solve_all(self, &r, &b, count, deadline);
    self->busy = 0;
    release(&b);
    if (status < 0) return NULL;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(line_doc,
"line(rules, hands, trump, leader, trick, time_limit=None)\n--\n\n"
"One position (hands: int64 (players, 24); trick: int64 (players - 1,) padded with -1):\n"
"(value, [(seat, card), ...]) an optimal line of play to the end of the hand. time_limit\n"
"and signals stop it as they stop solve().");

static PyObject *line_list(const int *seats, const int *cards, int plays)
{
    PyObject *list = PyList_New(plays);
    for (int i = 0; list && i < plays; i++) {
        PyObject *pair = Py_BuildValue("(ii)", seats[i], cards[i]);
        if (!pair) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, pair);
    }
    return list;
}

static PyObject *Solver_line(Solver *self, PyObject *const *args, Py_ssize_t nargs)
{
    Rules r;
    Py_buffer hands, trick;
    Game g;
    double deadline;
    if (nargs != 5 && nargs != 6)
        return PyErr_Format(PyExc_TypeError, "line() takes 5 or 6 arguments (%zd given)", nargs);
    long long trump = PyLong_AsLongLong(args[2]), leader = PyLong_AsLongLong(args[3]);
    if (PyErr_Occurred() || read_deadline(nargs > 5 ? args[5] : Py_None, &deadline) < 0 ||
        parse_rules(args[0], &r) < 0)
        return NULL;
    if (get_buffer(args[1], &hands, r.players * NCARDS, 0, "hands") < 0) return NULL;
    if (get_buffer(args[4], &trick, r.players - 1, 0, "trick") < 0) {
        PyBuffer_Release(&hands);
        return NULL;
    }
    int status = read_game(&r, hands.buf, trump, leader, trick.buf, 0, &g);
    PyBuffer_Release(&hands);
    PyBuffer_Release(&trick);
    if (status < 0 || claim(self) < 0) return NULL;
    int seats[MAXP * NCARDS * MAXCOPIES], cards[MAXP * NCARDS * MAXCOPIES], plays;
    int32_t value;
    int signals = runs_signal_handlers();
    Search s = stoppable_search(&r, &self->table, deadline, signals);
    begin(self, &r, &g);
    PyThreadState *thread = PyEval_SaveThread(); /* poll_stop takes it back a moment */
    s.thread = signals ? thread : NULL;
    value = game_value(&s, &g);
    plays = optimal_line(&s, &g, value, seats, cards);
    PyEval_RestoreThread(thread);
    self->nodes += s.nodes;
    self->busy = 0;
    if (finish(&s, signals, 0, 1) < 0) return NULL;
    PyObject *list = line_list(seats, cards, plays);
    return list ? Py_BuildValue("(iN)", value, list) : NULL;
}

static PyObject *Solver_get_nodes(Solver *self, void *closure)
{
    (void)closure;
    return PyLong_FromUnsignedLongLong(self->nodes);
}

static PyMethodDef Solver_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))Solver_solve, METH_FASTCALL, solve_doc},
    {"line", (PyCFunction)(void (*)(void))Solver_line, METH_FASTCALL, line_doc},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Solver_getset[] = {
    {"nodes", (getter)Solver_get_nodes, NULL, "positions searched by this Solver so far", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "meldcalc.engines._solver.Solver",
    .tp_basicsize = sizeof(Solver),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = PyDoc_STR("Solver(table_bits=22): an exact trick-play search owning a "
                        "transposition table of 2**table_bits entries of 32 bytes."),
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Solver_init,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
    .tp_getset = Solver_getset,
};

static struct PyModuleDef solver_module = {
    PyModuleDef_HEAD_INIT, "_solver", "Exact (double-dummy) trick-play search.", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__solver(void)
{
    if (PyType_Ready(&SolverType) < 0) return NULL;
    PyObject *module = PyModule_Create(&solver_module);
    if (!module) return NULL;
    TimeLimit = PyErr_NewExceptionWithDoc(
        "meldcalc.engines._solver.TimeLimit",
        "A search ran out of its time limit: args (message, positions solved before it).", NULL,
        NULL);
    if (!TimeLimit || PyModule_AddObjectRef(module, "TimeLimit", TimeLimit) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(module, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}

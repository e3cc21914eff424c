/* test_obs_golden.c — observation tensors pinned by checksum.
 *
 * For every registered game, with its defaults and with each of its
 * test_specs, seeded random playouts visit many states; at each one every
 * seat's observation is hashed (FNV-1a 64 over the floats' bit patterns)
 * into one checksum per spec. The table below was computed before any
 * observe function was rewritten for speed, so a rewrite that changes a
 * single float of a single tensor, or leaves a float unwritten, fails
 * here. The buffer is filled with a sentinel before every call: observe
 * must write all obs_size floats itself. A CPU runs only the widest build
 * of an observe that has one per store width, so the same states are
 * observed again with each narrower width it has, which must agree.
 *
 * PARLOR_OBS_GOLDEN_PRINT=1 prints the table instead of checking it, for
 * a game whose rules (not whose speed) change; PARLOR_OBS_GOLDEN_GAME=name
 * checks only the specs that begin with name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game.h"
#include "engine/obs_fill.h"

#define PLAYOUTS 60  /* seeded random games per spec */
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull
#define SENTINEL 1234.5f

struct golden {
    const char *spec; /* a registered game's spec */
    uint64_t sum;     /* checksum of its observations */
};

/* Computed from the observe functions as they were at issue 17. */
static const struct golden goldens[] = {
    {"spoil_five",
     0x0cc02f7e80e423eeull},
    {"spoil_five(players=2,fiving=true)",
     0xe9eeb3da28acfde4ull},
    {"spoil_five(partnerships=true,fiving=true,jinking=true)",
     0xcc8773d7709ea6b5ull},
    {"spoil_five(players=5,two_tricks_win=true)",
     0x19426d4e2dd20e8dull},
    {"spoil_five(players=7,two_tricks_win=true,jinking=true,robbing=optional)",
     0xd4a6568b26fcabc1ull},
    {"spoil_five(players=10,target=45,robbing=optional)",
     0x2b7b197199ed9b37ull},
    {"spoil_five(partnerships=true,target=25,fiving=true)",
     0xab6eb55f548c7001ull},
    {"spoil_five(players=3,jinking=true,ace_hearts_lead_is_trump_lead=true)",
     0x5f8b6a68e5179eb3ull},
    {"spoil_five(players=6,ordinary_sequence=true,jinking=true,deals=3)",
     0x67da99ff1362c86cull},
    {"spoil_five(players=3,stake=0,dealer_stake=0,spoil_stake=0)",
     0x1b708736aedc0aabull},
    {"thirty_one",
     0x53c663bc1ef62191ull},
    {"thirty_one(players=2,lives=0)",
     0xa88fa1d5247728e6ull},
    {"thirty_one(players=9,knock_first_turn=false,max_turns=40)",
     0x7afad22bdc15c7a0ull},
    {"thirty_one(players=5,lives=1,county=false,max_rounds=20)",
     0x31d1949cd28dd889ull},
    {"ninety_nine",
     0x5f21d4b482e16849ull},
    {"ninety_nine(players=2,pennies=1)",
     0x044f69cbdbe51831ull},
    {"ninety_nine(players=6,pennies=5)",
     0x143d890ef541b945ull},
    {"ninety_nine(players=3,decks=2)",
     0x1eca864161a7f771ull},
    {"ninety_nine(players=16,decks=1,pennies=2)",
     0x81f5b634feb3e6fdull},
    {"ninety_nine(players=5,max_turns=30)",
     0xebd9c114da7f2c01ull},
    {"dice",
     0xf68e83d5ad6c9b1dull},
    {"dice(players=2)",
     0x49bb0b3052d696e1ull},
    {"dice(players=16,max_dice=true)",
     0x9fc09c4da281e699ull},
    {"dice(players=3,max_turns=5)",
     0x34e43b5bb0513400ull},
    {"nine_card_golf",
     0xb6b5df4a58ba64b1ull},
    {"nine_card_golf(players=2,holes=2)",
     0xd57986fc4f623e18ull},
    {"nine_card_golf(players=5,decks=1,holes=1)",
     0xde461fdac516a660ull},
    {"nine_card_golf(players=8,holes=1,max_rounds=10)",
     0xf83ac5e038fcad3dull},
    {"nine_card_golf(players=3,decks=5,holes=3)",
     0x0a0d3aac322fe69full},
    {"loto",
     0xe817baa8efd6dc2aull},
    {"loto(players=16)",
     0xab9ae0a0f3944c00ull},
    {"loto(players=2,stake=1,row_prizes=false)",
     0x8b7ce2c31246fd41ull},
    {"loto(method=keno,drawings=1)",
     0x2038415808f73fe6ull},
    {"loto(method=keno,players=16,drawings=3)",
     0xa7d05fc149797a7full},
    {"loto(method=keno,players=2)",
     0x5dedf91d7f2637c9ull},
    {"casino",
     0x07655fecaf0e869dull},
    {"casino(players=4,partnerships=true)",
     0xed2a1e76342e7c69ull},
    {"casino(players=4,partnerships=true,sweeps=true,build_as_card=true,"
     "owner_may_trail=true)",
     0xff3531b509d634d9ull},
    {"casino(players=3,raise_with_table=true,owner_may_trail=true,"
     "cards_scoring=two_and_last)",
     0x42a76e7b3d97aedcull},
    {"casino(players=3,build_as_card=true,sweeps=true,target=11)",
     0x641db1a65bfe975bull},
    {"casino(players=4,raise_with_table=true,sweeps=true)",
     0xbad49421c3fc8cb1ull},
    {"my_bird_sings",
     0xac8425e9babec439ull},
    {"my_bird_sings(players=13)",
     0x20f5554801cb743dull},
    {"my_bird_sings(players=8,pack=short)",
     0xf1448cfede982c91ull},
    {"my_bird_sings(players=3,method=draw,until_exhausted=true)",
     0x54a849231977ef8bull},
    {"my_bird_sings(players=5,three_cards=true,until_exhausted=true)",
     0xa91a5bb907fc815cull},
    {"my_bird_sings(players=2,flushes_only=true,max_circuits=40)",
     0x82b18af3c3076000ull},
    {"my_bird_sings(players=6,pack=short,method=draw,deals=3)",
     0x4d6ec2f9c9435894ull},
    {"my_bird_sings(players=13,until_exhausted=true,method=draw)",
     0x21309a79b08ad751ull},
    {"my_bird_sings(players=4,exchange=false,flushes_only=true,deals=4)",
     0x9841b5c2d995cc89ull},
    {"forty_two",
     0x358faf7d373ae72dull},
    {"forty_two(min_bid=30,full_bid_penalty=true)",
     0xc33cff88f3420dedull},
    {"forty_two(target=1,max_hands=1)",
     0x427ba3c37d00627dull},
    {"hilo",
     0x33413eb214cc85f0ull},
    {"hilo(players=4,another_deal=false)",
     0x367faa4d3e34e031ull},
    {"hilo(players=4,partnerships=false,target=3)",
     0x5a13c9e6825f19e9ull},
    {"hilo(players=3,target=2)",
     0x585330d52f571dc5ull},
    {"trix",
     0x11a6600e015a1259ull},
    {"trix(players=4,sides=true)",
     0x697fdde39a7c4385ull},
    {"trix(players=6,sides=true)",
     0xbfd54915ddf087d1ull},
    {"trix(players=8,sides=true,target=300)",
     0xd9e4c22ad3537ef5ull},
    {"trix(players=5,target=100)",
     0x87cccf6206fa4157ull},
    {"trix(players=7,target=1,max_deals=2)",
     0xab7093abb4754c21ull},
    {"gyp",
     0xea925754ffcf6a29ull},
    {"gyp(players=3,target=3)",
     0xba49dc1bf1075b3aull},
    {"gyp(players=5,target=1,max_deals=2)",
     0x0f097af1cfeb69c6ull},
    {"call_suit_forty_two",
     0x4211c7bb60dbf38dull},
    {"call_suit_forty_two(first_lead_only=true,target=1,max_hands=1)",
     0x469095bc4381df3dull},
    {"trix_authors",
     0x927b4f3d7792c494ull},
    {"trix_authors(players=6,max_asks=200)",
     0x3cc007c4295ce8b1ull},
    {"trix_authors(players=3,max_asks=30)",
     0x5c05b9710456c8b7ull},
    {"magna",
     0x830fab7c1cef51b5ull},
    {"magna(players=2,variation=true)",
     0x5a5e53e5bce7976dull},
    {"magna(players=5,target=5)",
     0x55b2f84628111ef8ull},
    {"magna(partnerships=false,variation=true,target=4)",
     0x46bcb6a81669b651ull},
    {"rover",
     0x667bbdefc588a800ull},
    {"rover(players=4,sides=true)",
     0xcaafe7da7ef965d8ull},
    {"rover(players=6,sides=true,target=5)",
     0xef0f8157fab047f5ull},
    {"rover(players=8,sides=true,max_draws=50)",
     0x7980b23d66b7adb8ull},
    {"rover(players=5,target=1,max_deals=2)",
     0x45a3d373d29c7945ull},
    {"trix_exchange",
     0x2332fc8c3f71ab70ull},
    {"trix_exchange(players=4,sides=true)",
     0x7f3580a4de5a5234ull},
    {"trix_exchange(players=6,sides=true,change_number=true)",
     0xd52f644bacec10d6ull},
    {"trix_exchange(players=8,sides=true,target=20)",
     0x11ff9e5b945d10d4ull},
    {"trix_exchange(players=3,change_number=true,bankrupt_needs_points=true)",
     0x7106bdfdb67a4c13ull},
    {"trix_exchange(players=5,target=1,max_deals=2,max_rounds=5)",
     0xe366deadb4176696ull},
    {"trix_football",
     0x98f1710799f0186cull},
    {"trix_football(plays_per_half=3,sudden_death=true)",
     0xb986d927e95c44efull},
    {"trix_football(plays_per_half=1,sudden_death=true)",
     0x1df7c7ee9037a4a6ull},
    {"bi_jinx",
     0xb03133934eeb82d6ull},
    {"bi_jinx(players=4,partnerships=false,hands=2)",
     0xba80303cc9bedf17ull},
    {"bi_jinx(players=3,returns=margin,price_cap=100)",
     0x4fb2dcfea8d6a30dull},
    {"bi_jinx(players=2,proposals=1,hands=3)",
     0xaa7f5c57f1925a49ull},
    {"klaberjass",
     0xc8d8e15d059698a4ull},
    {"klaberjass(schmeiss=true,tie=hold_over)",
     0x8089f60a85c2abb1ull},
    {"klaberjass(show_bottom=false,target=1,max_deals=2)",
     0x0f733d3e40209fccull},
    {"pinochle",
     0x642c52f680919bc7ull},
    {"pinochle(players=8,last_trick=20)",
     0x48e37fbec5aac6efull},
    {"pinochle(trump=auction,target=1)",
     0xd17d63a1479c5314ull},
    {"pinochle(players=8,trump=auction,max_deals=1)",
     0xc7c9a7b11f65177dull},
    {"pinochle(trump=free,min_bid=300)",
     0x75257ff6aec66a1eull},
    {"pinochle(players=8,trump=free,max_deals=2)",
     0xde8e02b739a75305ull},
    {"binokel",
     0xfb2a141cb08e4274ull},
    {"binokel(players=2)",
     0x54dede50f8ce7494ull},
    {"binokel(players=4,min_bid=300)",
     0x96995952c7ac301cull},
    {"binokel(betel=true,concession=true,target=1)",
     0x237a2039c7be4057ull},
    {"binokel(players=4,betel=true,concession=true,max_deals=1)",
     0xfbec42d6bf7f0fd8ull},
    {"binocle",
     0xb0bc9366073aeb9cull},
    {"binocle(players=4)",
     0x9a3a94ba419851e1ull},
    {"binocle(players=4,soloist=false)",
     0xed8ef63538c3fdfcull},
    {NULL, 0},
};

static uint64_t fnv_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= FNV_PRIME;
    }
    return h;
}

/* Hashes every seat's observation of st into h. */
static uint64_t hash_state(const struct game *g, const void *st, float *obs,
                           uint64_t h)
{
    for (int s = 0; s < g->dims.players; s++) {
        for (int i = 0; i < g->dims.obs_size; i++)
            obs[i] = SENTINEL;
        g->def->observe(g, st, s, obs);
        h = fnv_bytes(h, obs, sizeof *obs * (size_t)g->dims.obs_size);
    }
    return h;
}

/* One random step: every acting seat picks uniformly among its actions. */
static void random_step(const struct game *g, void *st, uint32_t m, int *buf,
                        struct rng *rng)
{
    int joint[GAME_MAX_PLAYERS];
    bool several = (m & (m - 1)) != 0;
    for (uint32_t k = m; k; k &= k - 1) {
        int s = __builtin_ctz(k);
        int n = g->def->legal(g, st, s, buf);
        assert_true(n > 0);
        joint[s] = buf[rng_below(rng, (uint32_t)n)];
        if (!several) {
            g->def->apply(g, st, joint[s]);
            return;
        }
    }
    g->def->apply_joint(g, st, joint);
}

/* What each_state does at a state: folds something of it into h. */
typedef uint64_t (*state_fn)(const struct game *g, const void *st, float *obs,
                             uint64_t h);

/* Folds visit over every state of PLAYOUTS seeded games of spec, from
 * FNV_OFFSET on. */
static uint64_t each_state(const char *spec, state_fn visit)
{
    struct game g;
    char err[256];
    if (game_make(&g, spec, err, sizeof err) != 0)
        fail_msg("%s: %s", spec, err);
    void *st = malloc(g.def->state_size);
    float *obs = malloc(sizeof *obs * (size_t)g.dims.obs_size);
    int *buf = malloc(sizeof *buf * (size_t)g.dims.max_legal);
    assert_non_null(st);
    assert_non_null(obs);
    assert_non_null(buf);
    struct rng rng;
    rng_seed(&rng, 17);
    uint64_t h = FNV_OFFSET;
    for (int p = 0; p < PLAYOUTS; p++) {
        assert_int_equal(game_init(&g, st, (uint64_t)p + 1, NULL, 0), 0);
        h = visit(&g, st, obs, h);
        uint32_t m;
        for (int n = 0; (m = g.def->to_move(&g, st)) != 0; n++) {
            assert_true(n < g.dims.max_length);
            random_step(&g, st, m, buf, &rng);
            h = visit(&g, st, obs, h);
        }
    }
    free(buf);
    free(obs);
    free(st);
    return h;
}

/* The checksum of spec's observations over PLAYOUTS seeded games. */
static uint64_t spec_checksum(const char *spec)
{
    return each_state(spec, hash_state);
}

/* Checks that every narrower store width this CPU has writes each seat's
 * observation of st as the widest does; h passes through. */
static uint64_t same_at_each_width(const struct game *g, const void *st,
                                   float *obs, uint64_t h)
{
    enum obs_width best = obs_width_best();
    size_t size = sizeof *obs * (size_t)g->dims.obs_size;
    float *narrow = malloc(size);
    assert_non_null(narrow);
    for (int s = 0; s < g->dims.players; s++) {
        g->def->observe(g, st, s, obs);
        for (int wd = best + 1; wd <= OBS_WIDTH_16; wd++) {
            if (!obs_width_supported((enum obs_width)wd))
                continue;
            for (int i = 0; i < g->dims.obs_size; i++)
                narrow[i] = SENTINEL;
            obs_width_cap((enum obs_width)wd);
            g->def->observe(g, st, s, narrow);
            obs_width_cap(OBS_WIDTH_64);
            if (memcmp(obs, narrow, size) != 0)
                fail_msg("%s: seat %d's observation differs with %d-byte "
                         "stores", g->def->name, s, 64 >> wd);
        }
    }
    free(narrow);
    return h;
}

/* Calls fn on the defaults and every test spec of every game. */
static void each_spec(void (*fn)(const char *spec))
{
    for (int i = 0; i < game_registry_count; i++) {
        const struct game_def *def = game_registry[i];
        fn(def->name);
        for (const char *const *t = def->test_specs; t && *t; t++)
            fn(*t);
    }
}

static void print_one(const char *spec)
{
    printf("    {\"%s\",\n     0x%016llxull},\n", spec,
           (unsigned long long)spec_checksum(spec));
}

static int checked;

static void check_one(const char *spec)
{
    const char *only = getenv("PARLOR_OBS_GOLDEN_GAME");
    if (only && *only && strncmp(spec, only, strlen(only)) != 0) {
        checked++;
        return;
    }
    for (const struct golden *w = goldens; w->spec; w++) {
        if (strcmp(w->spec, spec) != 0)
            continue;
        uint64_t got = spec_checksum(spec);
        if (got != w->sum)
            fail_msg("%s: observations changed (checksum %016llx, want "
                     "%016llx)", spec, (unsigned long long)got,
                     (unsigned long long)w->sum);
        checked++;
        return;
    }
    fail_msg("%s: no golden checksum (PARLOR_OBS_GOLDEN_PRINT=1)", spec);
}

static void check_widths(const char *spec)
{
    each_state(spec, same_at_each_width);
}

/* Every spec's observations hash to the recorded value. */
static void test_checksums(void **state)
{
    (void)state;
    const char *print = getenv("PARLOR_OBS_GOLDEN_PRINT");
    if (print && *print == '1') {
        each_spec(print_one);
        return;
    }
    checked = 0;
    each_spec(check_one);
    assert_int_equal(checked, (int)(sizeof goldens / sizeof *goldens) - 1);
}

/* Observe functions with a build per store width (obs_width_best) write
 * the same floats in every build, though a CPU runs only its widest: the
 * checksums above hold for the narrower builds too. */
static void test_widths_agree(void **state)
{
    (void)state;
    enum obs_width best = obs_width_best();
    int narrower = 0;
    for (int wd = best + 1; wd <= OBS_WIDTH_16; wd++)
        narrower += obs_width_supported((enum obs_width)wd);
    if (!narrower)
        skip(); /* a CPU with one width only */
    each_spec(check_widths);
    assert_int_equal(obs_width_best(), best);
}

/* The checksum sees one float changed: a changed tensor cannot pass. */
static void test_checksum_sees_one_float(void **state)
{
    (void)state;
    float a[3] = {0.0f, 1.0f, 0.5f}, b[3] = {0.0f, 1.0f, 0.25f};
    assert_true(fnv_bytes(FNV_OFFSET, a, sizeof a) !=
                fnv_bytes(FNV_OFFSET, b, sizeof b));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_checksum_sees_one_float),
        cmocka_unit_test(test_checksums),
        cmocka_unit_test(test_widths_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

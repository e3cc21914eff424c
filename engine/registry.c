/* registry.c — the table of games, expanded from games.def. */
#include "game.h"

#define GAME(id) extern const struct game_def id##_game;
#include "games.def"
#undef GAME

const struct game_def *const game_registry[] = {
#define GAME(id) &id##_game,
#include "games.def"
#undef GAME
};

const int game_registry_count =
    (int)(sizeof game_registry / sizeof game_registry[0]);

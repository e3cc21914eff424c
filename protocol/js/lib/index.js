// index.js — parlor's JavaScript client: the env role (Client, Env,
// VectorEnv) and the agent role (runBot). See protocol/js/README.md.
'use strict';
module.exports = { ...require('./client'), ...require('./bot'), ...require('./keys') };

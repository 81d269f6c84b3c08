/**
 * The largest `pages` a multi-page scan may sample (core/limits.ts says who may ask for how many). A module of its
 * own, so that the CLI's option parsing and the route models read it without loading the sampler.
 */
export const MAX_PAGES = 100

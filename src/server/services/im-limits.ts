/** The IM write limit that both messages.ts and blocks.ts enforce; it lives here so neither has to import the other. */

/** Other IM writes (block, like, delete, settings, clear, read) per user per minute. */
export const IM_WRITE_LIMIT = { limit: 120, windowMs: 60_000 };

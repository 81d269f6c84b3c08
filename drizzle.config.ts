import { defineConfig } from 'drizzle-kit'

// The tables live with what owns them: the kernel's API keys and each feature's tables.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./core/keys/tables.ts', './plugins/*/tables.ts'],
  out: './migrations',
})

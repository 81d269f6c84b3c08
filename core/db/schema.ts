// The tables barrel: drizzle-kit reads it to generate migrations, and drizzle's relational queries use it.
export * from '../keys/tables.ts'
export * from '../../plugins/scan/tables.ts'
export * from '../../plugins/ard/tables.ts'
export * from '../../plugins/feedback/tables.ts'
export * from '../../plugins/contact/tables.ts'
export * from '../../plugins/journey/tables.ts'

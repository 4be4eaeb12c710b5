/** The schema migrations (server/store/migrations.ts) as PostgreSQL runs them. */
import { migrationsFor } from '../migrations.js';

export const postgresMigrations = migrationsFor('postgres');

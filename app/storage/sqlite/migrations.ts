/**
 * Versioned migrations of the embedded database, applied in order once each and recorded in
 * schema_migrations. Never edit a released migration: add the next one.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "documents",
    sql: `
      CREATE TABLE documents (
        collection TEXT NOT NULL,
        id TEXT NOT NULL,
        version INTEGER NOT NULL,
        data TEXT NOT NULL CHECK (json_valid(data)),
        PRIMARY KEY (collection, id)
      );
    `,
  },
  {
    version: 2,
    name: "user and audit indexes",
    sql: `
      CREATE INDEX documents_email ON documents (collection, json_extract(data, '$.emailLower'));
      CREATE INDEX documents_at ON documents (collection, json_extract(data, '$.at'), id);
    `,
  },
];

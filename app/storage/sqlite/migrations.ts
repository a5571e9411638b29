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
  {
    version: 3,
    name: "campaign, catalog and history indexes",
    sql: `
      CREATE INDEX documents_team_updated ON documents (collection, json_extract(data, '$.team'), json_extract(data, '$.updated'), id);
      CREATE INDEX documents_updated ON documents (collection, json_extract(data, '$.updated'), id);
      CREATE INDEX documents_entity_at ON documents (collection, json_extract(data, '$.entityId'), json_extract(data, '$.at'), id);
      CREATE INDEX documents_title ON documents (collection, json_extract(data, '$.titleLower'), id);
      CREATE INDEX documents_user ON documents (collection, json_extract(data, '$.userId'));
      -- The end-date sort key (campaigns.server.ts) of campaigns written before it existed.
      UPDATE documents
        SET data = json_set(data, '$.endSort', COALESCE(NULLIF(json_extract(data, '$.endDate'), ''), '9999-12-31T23:59:59.999Z'))
        WHERE collection = 'campaign' AND json_type(data, '$.endSort') IS NULL;
    `,
  },
];

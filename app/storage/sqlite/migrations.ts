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
    name: "campaign and history indexes",
    // Partial indexes: their expressions are computed only for documents of their collection,
    // so they cost nothing on the writes of others (the catalog seed writes thousands).
    sql: `
      CREATE INDEX documents_audit_entity ON documents (json_extract(data, '$.entityId'), json_extract(data, '$.at'), id)
        WHERE collection = 'audit_log';
      CREATE INDEX documents_campaign_team ON documents (json_extract(data, '$.team'), json_extract(data, '$.updated'), id)
        WHERE collection = 'campaign';
      -- The end-date sort key (repos/campaigns.server.ts) of campaigns written before it existed.
      UPDATE documents
        SET data = json_set(data, '$.endSort', COALESCE(NULLIF(json_extract(data, '$.endDate'), ''), '9999-12-31T23:59:59.999Z'))
        WHERE collection = 'campaign' AND json_type(data, '$.endSort') IS NULL;
    `,
  },
];

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
  {
    version: 4,
    name: "campaign list sort indexes",
    // The campaign list orders by one of these fields and pages through the top rows. Partial
    // indexes (WHERE collection = 'campaign') are not chosen for the store's queries, which bind
    // the collection as a parameter, so these lead with the collection: on 2,000 campaigns the
    // first page went from a 15 ms sort of every document to 0.4 ms.
    sql: `
      CREATE INDEX documents_sort_updated ON documents (collection, json_extract(data, '$.updated'), id);
      CREATE INDEX documents_sort_name ON documents (collection, json_extract(data, '$.nameLower'), id);
      CREATE INDEX documents_sort_start ON documents (collection, json_extract(data, '$.startDate'), id);
      CREATE INDEX documents_sort_end ON documents (collection, json_extract(data, '$.endSort'), id);
      CREATE INDEX documents_sort_created ON documents (collection, json_extract(data, '$.created'), id);
      CREATE INDEX documents_sort_spend ON documents (collection, json_extract(data, '$.spend'), id);
      CREATE INDEX documents_team_updated ON documents (collection, json_extract(data, '$.team'), json_extract(data, '$.updated'), id);
    `,
  },
  {
    version: 5,
    name: "campaign list status index",
    // A status filter in the default order reads its own campaigns only (not every campaign's JSON).
    sql: `
      CREATE INDEX documents_status_updated ON documents (collection, json_extract(data, '$.status'), json_extract(data, '$.updated'), id);
    `,
  },
  {
    version: 6,
    name: "catalog change index",
    // The search index (ADR 20) reads the products changed since an upsert, by its number.
    sql: `
      CREATE INDEX documents_catalog_seq ON documents (collection, json_extract(data, '$.catalogSeq'), id);
    `,
  },
  {
    version: 7,
    name: "search token index",
    // A search's token (array-contains over searchTokens) looked up in a table of its own rather
    // than in every document's JSON (ADR 25): on 2,000 campaigns a search that matched nothing
    // read all 2,000 documents. Kept by the document store on every write of these collections
    // (INDEXED_ARRAYS in document-store.server.ts, which must name the same ones).
    sql: `
      CREATE TABLE document_tokens (
        collection TEXT NOT NULL,
        field TEXT NOT NULL,
        token TEXT NOT NULL,
        id TEXT NOT NULL,
        PRIMARY KEY (collection, field, token, id)
      ) WITHOUT ROWID;
      CREATE INDEX document_tokens_id ON document_tokens (collection, id);
      INSERT OR IGNORE INTO document_tokens (collection, field, token, id)
        SELECT d.collection, 'searchTokens', j.value, d.id FROM documents d, json_each(d.data, '$.searchTokens') j
        WHERE d.collection IN ('campaign', 'team', 'user') AND j.type = 'text';
    `,
  },
];

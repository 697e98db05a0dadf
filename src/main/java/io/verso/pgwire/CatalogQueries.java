package io.verso.pgwire;

import io.verso.engine.StatementResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The catalog queries clients send by themselves, answered from Verso's catalog: psql's {@code \dt} and
 * {@code \d t} ({@code \d+ t}), pgjdbc's {@code DatabaseMetaData.getTables}, {@code getColumns} and
 * {@code getPrimaryKeys}, and the type look-ups pgjdbc makes for an OID it does not know. Each is recognised by
 * its text as those clients print it (whitespace runs count as one space) and answered with the tables the
 * caller may see ({@code SHOW TABLES}, then {@code DESCRIBE} of those, run for the connection's principal), in
 * schema {@code public}; a table the caller may not see answers no rows, as one that does not exist. Nothing of
 * the query's text is run: its patterns and parameters only filter those listings, and PostgreSQL's own catalog
 * of the storage tables is never read. Any other catalog query goes to the engine like any statement: it
 * answers information_schema's relations and pg_extension (analyze/SystemSchemas) and refuses the rest
 * (docs/pgwire.md).
 */
final class CatalogQueries {

    /** What the caller may see of the catalog. */
    interface Catalog {
        /** The database the client connected to: the catalog name (TABLE_CAT) pgjdbc shows. */
        String database();

        /** The tables the caller may see, by name. */
        List<String> tables() throws StatementRequests.Failed;

        /** The DESCRIBE result of each table named, in order; each is one the caller may see. */
        List<StatementResult> describe(List<String> tables) throws StatementRequests.Failed;

        /** The views the caller may read, by name. */
        List<View> views() throws StatementRequests.Failed;
    }

    /** A view the caller may read: its query's text and the columns it answers. */
    record View(String name, String query, List<StatementResult.Column> columns) {
    }

    /** The queries answered here, each by the shape of its text once its whitespace is normalised. */
    private enum Query {
        /** psql's \dt, \dv, \di (a pattern, +, or both), \d with no name: the relkinds listed choose. */
        PSQL_LIST("SELECT n\\.nspname as \"Schema\", c\\.relname as \"Name\",.*FROM pg_catalog\\.pg_class c.*"
                + "WHERE c\\.relkind IN \\(('[^']*'(?:,'[^']*')*)\\).*"),
        /** psql's \d t, first step: the relations whose name matches. */
        PSQL_FIND(quoted("SELECT c.oid, n.nspname, c.relname FROM pg_catalog.pg_class c LEFT JOIN "
                + "pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE ") + ".*"),
        /** psql's \d t: what kind of relation the OID is, and which footers to ask for. */
        PSQL_RELATION(quoted("SELECT c.relchecks, c.relkind, c.relhasindex, c.relhasrules, c.relhastriggers, "
                + "c.relrowsecurity, c.relforcerowsecurity, false AS relhasoids, c.relispartition, ")
                + ".* WHERE c\\.oid = '(\\d+)'"),
        /** psql's \d t: the columns; \d+ asks for four more. */
        PSQL_COLUMNS(quoted("SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), ")
                + ".* FROM pg_catalog\\.pg_attribute a WHERE a\\.attrelid = '(\\d+)' AND a\\.attnum > 0 "
                + "AND NOT a\\.attisdropped ORDER BY a\\.attnum"),
        /** psql's \d t: the indexes (the primary key first). */
        PSQL_INDEXES(quoted("SELECT c2.relname, i.indisprimary, i.indisunique, i.indisclustered, i.indisvalid, "
                + "pg_catalog.pg_get_indexdef(i.indexrelid, 0, true), ") + ".* WHERE c\\.oid = '(\\d+)' AND "
                + "c\\.oid = i\\.indrelid AND i\\.indexrelid = c2\\.oid .*"),
        /** psql's \d t: the CHECK constraints. */
        PSQL_CHECKS(quoted("SELECT r.conname, pg_catalog.pg_get_constraintdef(r.oid, true) FROM "
                + "pg_catalog.pg_constraint r WHERE r.conrelid = '") + "(\\d+)" + quoted("' AND r.contype = 'c' "
                + "ORDER BY 1")),
        /** psql's \d t footers for what Verso tables never have: row security policies. */
        PSQL_POLICIES(quoted("SELECT pol.polname, pol.polpermissive, ") + ".*", "polname", "polpermissive",
                "roles", "qual", "withcheck", "cmd"),
        /** Extended statistics. */
        PSQL_STATISTICS(quoted("SELECT oid, stxrelid::pg_catalog.regclass, ") + ".*", "oid", "stxrelid", "nsp",
                "stxname", "columns", "ndist_enabled", "deps_enabled", "mcv_enabled", "stxstattarget"),
        /** Publications. */
        PSQL_PUBLICATIONS(quoted("SELECT pubname , NULL , NULL FROM pg_catalog.pg_publication p ") + ".*",
                "pubname", "filter", "columns"),
        /** Parents. */
        PSQL_PARENTS(quoted("SELECT c.oid::pg_catalog.regclass FROM pg_catalog.pg_class c, pg_catalog.pg_inherits "
                + "i WHERE c.oid = i.inhparent ") + ".*", "oid"),
        /** Children and partitions. */
        PSQL_CHILDREN(quoted("SELECT c.oid::pg_catalog.regclass, c.relkind, inhdetachpending, ") + ".*", "oid",
                "relkind", "inhdetachpending", "partbound"),
        /** psql's \d+ v: a view's definition. */
        PSQL_VIEW_DEFINITION(quoted("SELECT pg_catalog.pg_get_viewdef('") + "(\\d+)"
                + quoted("'::pg_catalog.oid, true)")),
        /** psql's \d+ v: a view's rules besides its own, which Verso views never have. */
        PSQL_VIEW_RULES(quoted("SELECT r.rulename, trim(trailing ';' from pg_catalog.pg_get_ruledef(r.oid, true)) "
                + "FROM pg_catalog.pg_rewrite r WHERE r.ev_class = '") + ".*", "rulename", "btrim"),
        /** psql's \dn (and +): the one schema, {@code public}. */
        PSQL_SCHEMAS(quoted("SELECT n.nspname AS \"Name\", pg_catalog.pg_get_userbyid(n.nspowner) AS \"Owner\"")
                + ".*" + quoted("FROM pg_catalog.pg_namespace n") + ".*"),
        /** psql's \dn with a pattern, after the schemas: the publications of each. */
        PSQL_SCHEMA_PUBLICATIONS(quoted("SELECT pubname FROM pg_catalog.pg_publication p JOIN "
                + "pg_catalog.pg_publication_namespace pn ") + ".*", "pubname"),
        /** psql's \l (and +): the database the client connected to. */
        PSQL_DATABASES(quoted("SELECT d.datname as \"Name\", pg_catalog.pg_get_userbyid(d.datdba) as \"Owner\", ")
                + ".*" + quoted("FROM pg_catalog.pg_database d") + ".*"),
        /** psql's \df (and +): Verso has no user functions. */
        PSQL_FUNCTIONS(quoted("SELECT n.nspname as \"Schema\", p.proname as \"Name\", ") + ".*"
                + quoted("FROM pg_catalog.pg_proc p") + ".*"),
        /** psql's \dT (and +): nor user types. */
        PSQL_TYPES(quoted("SELECT n.nspname as \"Schema\", pg_catalog.format_type(t.oid, NULL) AS \"Name\", ")
                + ".*" + quoted("FROM pg_catalog.pg_type t") + ".*"),
        /** psql's \dx (and +): nor extensions. */
        PSQL_EXTENSIONS(quoted("SELECT e.extname AS \"Name\", ") + ".*" + quoted("FROM pg_catalog.pg_extension e")
                + ".*"),
        /**
         * psql's \du and \dg: PostgreSQL's login roles, of which Verso has none (its roles and grants are
         * {@code SHOW GRANTS}'s, and a connection's credential is an API key or a token).
         */
        PSQL_ROLES(quoted("SELECT r.rolname, r.rolsuper, r.rolinherit, ") + ".*"
                + quoted("FROM pg_catalog.pg_roles r") + ".*", "rolname", "rolsuper", "rolinherit",
                "rolcreaterole", "rolcreatedb", "rolcanlogin", "rolconnlimit", "rolvaliduntil", "memberof",
                "rolreplication", "rolbypassrls"),
        /** pgjdbc's getTables. */
        JDBC_TABLES("SELECT current_database\\(\\) AS \"TABLE_CAT\", n\\.nspname AS \"TABLE_SCHEM\", c\\.relname AS "
                + "\"TABLE_NAME\",.*FROM pg_catalog\\.pg_namespace n, pg_catalog\\.pg_class c .*"),
        /** pgjdbc's getColumns: it computes the JDBC columns from these attributes. */
        JDBC_COLUMNS(quoted("SELECT * FROM (SELECT current_database() AS current_database, n.nspname,c.relname,"
                + "a.attname,a.atttypid,") + ".*" + quoted(" FROM pg_catalog.pg_namespace n JOIN pg_catalog.pg_class "
                + "c ON (c.relnamespace = n.oid) JOIN pg_catalog.pg_attribute a ON (a.attrelid=c.oid) ") + ".*"),
        /** pgjdbc's getPrimaryKeys. */
        JDBC_PRIMARY_KEYS(quoted("SELECT result.TABLE_CAT AS \"TABLE_CAT\", result.TABLE_SCHEM AS \"TABLE_SCHEM\", "
                + "result.TABLE_NAME AS \"TABLE_NAME\", result.COLUMN_NAME AS \"COLUMN_NAME\", result.KEY_SEQ AS "
                + "\"KEY_SEQ\", result.PK_NAME AS \"PK_NAME\"") + " ?FROM \\( ?" + quoted("SELECT current_database() "
                + "AS TABLE_CAT, ") + ".* AND i\\.indisprimary .*"),
        /** pgjdbc's getIndexInfo. */
        JDBC_INDEX_INFO(quoted("SELECT tmp.TABLE_CAT AS \"TABLE_CAT\", tmp.TABLE_SCHEM AS \"TABLE_SCHEM\", "
                + "tmp.TABLE_NAME AS \"TABLE_NAME\", tmp.NON_UNIQUE AS \"NON_UNIQUE\", ") + ".*"
                + quoted("FROM pg_catalog.pg_class ct JOIN pg_catalog.pg_namespace n ON (ct.relnamespace = n.oid) "
                + "JOIN pg_catalog.pg_index i ON (ct.oid = i.indrelid) ") + ".*"),
        /** pgjdbc's getSchemas. */
        JDBC_SCHEMAS(quoted("SELECT nspname AS \"TABLE_SCHEM\", current_database() AS \"TABLE_CATALOG\" FROM "
                + "pg_catalog.pg_namespace ") + ".*"),
        /** pgjdbc's getImportedKeys, getExportedKeys and getCrossReference: Verso has no foreign keys. */
        JDBC_FOREIGN_KEYS(quoted("SELECT current_database() AS \"PKTABLE_CAT\", pkn.nspname AS \"PKTABLE_SCHEM\", ")
                + ".* AND con\\.contype = 'f' .*", "PKTABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_NAME", "PKCOLUMN_NAME",
                "FKTABLE_CAT", "FKTABLE_SCHEM", "FKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ", "UPDATE_RULE",
                "DELETE_RULE", "FK_NAME", "PK_NAME", "DEFERRABILITY"),
        /** pgjdbc's limit on the columns of a key, read before it lists foreign keys: PostgreSQL's own. */
        JDBC_MAX_INDEX_KEYS(quoted("SELECT setting FROM pg_catalog.pg_settings WHERE name='max_index_keys'")),
        /** pgjdbc's name of a type OID it does not know (uuid, for one). */
        JDBC_TYPE_NAME(quoted("SELECT n.nspname = ANY(current_schemas(true)), n.nspname, t.typname FROM "
                + "pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON t.typnamespace = n.oid WHERE t.oid = ")
                + "(\\$\\d+|\\d+)"),
        /** pgjdbc's SQL type of a type OID it does not know. */
        JDBC_TYPE_INFO(quoted("SELECT typinput='pg_catalog.array_in'::regproc as is_array, typtype, typname, "
                + "pg_type.oid FROM pg_catalog.pg_type ") + ".*");

        final Pattern pattern;
        /** The columns of a query answered with no rows, as Verso's tables have none of what it asks. */
        final List<String> none;

        Query(String regex, String... none) {
            this.pattern = Pattern.compile(regex, Pattern.DOTALL);
            this.none = List.of(none);
        }

        static Optional<Query> of(String normalised) {
            return Arrays.stream(values()).filter(q -> q.pattern.matcher(normalised).matches()).findFirst();
        }
    }

    private static final Pattern PSQL_NAME = Pattern.compile(
            "c\\.relname OPERATOR\\(pg_catalog\\.~\\) '((?:[^']|'')*)'");
    private static final Pattern PSQL_SCHEMA = Pattern.compile(
            "n\\.nspname OPERATOR\\(pg_catalog\\.~\\) '((?:[^']|'')*)'");
    private static final Pattern JDBC_NAME = Pattern.compile("c\\.relname LIKE (\\$\\d+|'((?:[^']|'')*)')");
    private static final Pattern JDBC_SCHEMA = Pattern.compile("n\\.nspname LIKE (\\$\\d+|'((?:[^']|'')*)')");
    private static final Pattern JDBC_SCHEMA_LIKE = Pattern.compile(" nspname LIKE (\\$\\d+|'((?:[^']|'')*)')");
    private static final Pattern JDBC_COLUMN = Pattern.compile(" attname LIKE (\\$\\d+|'((?:[^']|'')*)')");
    private static final Pattern JDBC_KEY_TABLE = Pattern.compile("ct\\.relname = (\\$\\d+|'((?:[^']|'')*)')");
    private static final Pattern JDBC_KEY_SCHEMA = Pattern.compile("n\\.nspname = (\\$\\d+|'((?:[^']|'')*)')");
    private static final Pattern JDBC_TYPE_OID = Pattern.compile("pg_type\\.oid = (\\$\\d+|\\d+)");
    /** How pgjdbc asks for type TABLE among the types given (its versions spell it either way). */
    private static final List<String> JDBC_TABLE_TYPE = List.of("c.relkind = 'r' AND n.nspname !~ '^pg_'",
            "c.relkind IN ('r','p') AND n.nspname !~ '^pg_'");
    /** How pgjdbc asks for type VIEW among the types given. */
    private static final String JDBC_VIEW_TYPE = "c.relkind = 'v' AND n.nspname <> 'pg_catalog'";
    /** The type OIDs Verso's columns have, for pgjdbc's type look-ups. */
    private static final List<Integer> TYPES = List.of(PgTypes.BOOL, PgTypes.INT8, PgTypes.INT2, PgTypes.INT4,
            PgTypes.TEXT, PgTypes.FLOAT4, PgTypes.FLOAT8, PgTypes.BPCHAR, PgTypes.VARCHAR, PgTypes.DATE,
            PgTypes.TIMESTAMP, PgTypes.TIMESTAMPTZ, PgTypes.NUMERIC, PgTypes.UUID_OID, PgTypes.JSONB);

    private CatalogQueries() {
    }

    /** Whether {@code sql} is a catalog query answered here. */
    static boolean recognizes(String sql) {
        return query(sql).isPresent();
    }

    /** The answer to {@code sql} with parameter values {@code values} ($1 first), if it is one answered here. */
    static Optional<StatementResult> answer(String sql, List<Object> values, Catalog catalog)
            throws StatementRequests.Failed {
        Optional<Query> query = query(sql);
        if (query.isEmpty()) {
            return Optional.empty();
        }
        String q = normalised(sql);
        Query kind = query.get();
        return Optional.of(switch (kind) {
            case PSQL_LIST -> psqlList(q, catalog);
            case PSQL_FIND -> psqlFind(q, catalog);
            case PSQL_RELATION -> psqlRelation(described(q, kind, catalog), view(q, kind, catalog));
            case PSQL_COLUMNS -> psqlColumns(described(q, kind, catalog), view(q, kind, catalog),
                    q.contains("a.attstorage"));
            case PSQL_VIEW_DEFINITION -> result(List.of(text("pg_get_viewdef")), view(q, kind, catalog)
                    .map(v -> List.<List<Object>>of(List.of(v.query()))).orElse(List.of()));
            case PSQL_INDEXES -> psqlIndexes(described(q, kind, catalog));
            case PSQL_CHECKS -> psqlChecks(described(q, kind, catalog));
            case JDBC_TABLES -> jdbcTables(q, values, catalog);
            case JDBC_COLUMNS -> jdbcColumns(q, values, catalog);
            case JDBC_PRIMARY_KEYS -> jdbcPrimaryKeys(q, values, catalog);
            case JDBC_INDEX_INFO -> jdbcIndexInfo(q, values, catalog);
            case JDBC_SCHEMAS -> jdbcSchemas(q, values, catalog);
            case JDBC_MAX_INDEX_KEYS -> result(List.of(text("setting")), List.of(List.of("32")));
            case JDBC_TYPE_NAME -> jdbcTypeName(q, values);
            case JDBC_TYPE_INFO -> jdbcTypeInfo(q, values);
            case PSQL_SCHEMAS -> aliased(q, named(PSQL_SCHEMA, q, "public") ? Map.of("Name", "public", "Owner", OWNER)
                    : null);
            case PSQL_DATABASES -> aliased(q, Map.of("Name", catalog.database(), "Owner", OWNER, "Encoding", "UTF8",
                    "Collate", "C", "Ctype", "C", "Locale Provider", "libc"));
            case PSQL_FUNCTIONS, PSQL_TYPES, PSQL_EXTENSIONS -> aliased(q, null);
            case PSQL_POLICIES, PSQL_STATISTICS, PSQL_PUBLICATIONS, PSQL_PARENTS, PSQL_CHILDREN, JDBC_FOREIGN_KEYS,
                 PSQL_ROLES, PSQL_SCHEMA_PUBLICATIONS, PSQL_VIEW_RULES ->
                    result(kind.none.stream().map(CatalogQueries::text).toList(), List.of());
        });
    }

    private static Optional<Query> query(String sql) {
        // Every query answered here reads pg_catalog; the test spares normalising every other text.
        return sql.contains("pg_catalog") ? Query.of(normalised(sql)) : Optional.empty();
    }

    /** The text with each run of whitespace as one space, without a final semicolon. */
    private static String normalised(String sql) {
        String q = sql.replaceAll("\\s+", " ").strip();
        return q.endsWith(";") ? q.substring(0, q.length() - 1).strip() : q;
    }

    // psql

    /** Who owns the schema and the database in psql's lists: the service, not a PostgreSQL role. */
    private static final String OWNER = "verso";
    private static final Pattern ALIAS = Pattern.compile(" (?:AS|as) \"([^\"]+)\"");

    /** Whether {@code name} is what psql's pattern in {@code q} (as {@code which} finds it) asks for, if any. */
    private static boolean named(Pattern which, String q, String name) {
        Pattern asked = regex(which.matcher(q));
        return asked == null || asked.matcher(name).matches();
    }

    /**
     * A psql list answered by the aliases its query names (a + asks for more columns): one row of
     * {@code values}, by alias, the others null, or no rows when {@code values} is null.
     */
    private static StatementResult aliased(String q, Map<String, Object> values) {
        List<StatementResult.Column> columns = new ArrayList<>();
        List<Object> row = new ArrayList<>();
        Matcher alias = ALIAS.matcher(q);
        while (alias.find()) {
            columns.add(text(alias.group(1)));
            row.add(values == null ? null : values.get(alias.group(1)));
        }
        return result(columns, values == null ? List.of() : List.of(row));
    }

    /**
     * psql's lists of relations: tables ({@code 'r'}), views ({@code 'v'}) and indexes ({@code 'i'}) as the
     * relkinds asked for choose, with an index's table, and with + the columns psql's verbose query names.
     */
    private static StatementResult psqlList(String q, Catalog catalog) throws StatementRequests.Failed {
        Matcher kinds = Query.PSQL_LIST.pattern.matcher(q);
        String asked = kinds.matches() ? kinds.group(1) : "";
        Pattern filter = regex(PSQL_NAME.matcher(q));
        boolean indexes = asked.contains("'i'");
        boolean verbose = q.contains("as \"Persistence\"");
        boolean accessMethod = q.contains("as \"Access method\"");
        List<List<Object>> rows = new ArrayList<>();
        if (asked.contains("'r'")) {
            for (String table : catalog.tables()) {
                rows.add(Arrays.asList("public", table, "table", "verso", null, "heap"));
            }
        }
        if (asked.contains("'v'")) {
            for (View view : catalog.views()) {
                rows.add(Arrays.asList("public", view.name(), "view", "verso", null, null));
            }
        }
        if (indexes) {
            for (DescribedTable t : tables(catalog, null, null, false)) {
                if (!t.key().isEmpty()) {
                    rows.add(Arrays.asList("public", t.keyName(), "index", "verso", t.name(), "btree"));
                }
                for (DescribedTable.Index i : t.indexes()) {
                    rows.add(Arrays.asList("public", i.name(), "index", "verso", t.name(), "btree"));
                }
            }
        }
        List<StatementResult.Column> columns = new ArrayList<>(List.of(text("Schema"), text("Name"), text("Type"),
                text("Owner")));
        if (indexes) {
            columns.add(text("Table"));
        }
        if (verbose) {
            columns.add(text("Persistence"));
            if (accessMethod) {
                columns.add(text("Access method"));
            }
            columns.addAll(List.of(text("Size"), text("Description")));
        }
        List<List<Object>> listed = new ArrayList<>();
        for (List<Object> row : rows.stream().sorted(Comparator.comparing(r -> (String) r.get(1))).toList()) {
            if (filter == null || filter.matcher((String) row.get(1)).matches()) {
                List<Object> out = new ArrayList<>(row.subList(0, 4));
                if (indexes) {
                    out.add(row.get(4));
                }
                if (verbose) {
                    out.add("permanent");
                    if (accessMethod) {
                        out.add(row.get(5));
                    }
                    out.addAll(Arrays.asList(null, null));
                }
                listed.add(out);
            }
        }
        return result(columns, listed);
    }

    private static StatementResult psqlFind(String q, Catalog catalog) throws StatementRequests.Failed {
        Pattern name = regex(PSQL_NAME.matcher(q));
        Pattern schema = regex(PSQL_SCHEMA.matcher(q));
        List<List<Object>> rows = new ArrayList<>();
        if (schema == null || schema.matcher("public").matches()) {
            List<String> relations = new ArrayList<>(catalog.tables());
            catalog.views().forEach(v -> relations.add(v.name()));
            for (String relation : sorted(relations)) {
                if (name == null || name.matcher(relation).matches()) {
                    rows.add(List.of(Long.toString(oid(relation)), "public", relation));
                }
            }
        }
        return result(List.of(text("oid"), text("nspname"), text("relname")), rows);
    }

    private static StatementResult psqlRelation(Optional<DescribedTable> table, Optional<View> view) {
        List<List<Object>> rows = new ArrayList<>();
        table.ifPresent(t -> rows.add(List.of(t.checks().size(), "r", t.hasIndex(), false, false, false, false, false,
                false, "", 0, "", "p", "d", "heap")));
        view.ifPresent(v -> rows.add(Arrays.asList(0, "v", false, true, false, false, false, false, false, "", 0, "",
                "p", "n", null)));
        return result(List.of(integer("relchecks"), text("relkind"), bool("relhasindex"), bool("relhasrules"),
                bool("relhastriggers"), bool("relrowsecurity"), bool("relforcerowsecurity"), bool("relhasoids"),
                bool("relispartition"), text("reloptions"), integer("reltablespace"), text("reloftype"),
                text("relpersistence"), text("relreplident"), text("amname")), rows);
    }

    private static StatementResult psqlColumns(Optional<DescribedTable> table, Optional<View> view,
                                               boolean verbose) {
        List<StatementResult.Column> columns = new ArrayList<>(List.of(text("attname"), text("format_type"),
                text("default"), bool("attnotnull"), text("attcollation"), text("attidentity"), text("attgenerated")));
        if (verbose) {
            columns.addAll(List.of(text("attstorage"), text("attcompression"), integer("attstattarget"),
                    text("description")));
        }
        List<List<Object>> rows = new ArrayList<>();
        // A view's columns: what its query answers, none of them with a default or NOT NULL.
        List<DescribedTable.Attribute> attributes = table.map(DescribedTable::attributes).orElseGet(() -> view
                .map(v -> v.columns().stream().map(c -> new DescribedTable.Attribute(c.name(), c.type(), false, null, null))
                        .toList()).orElse(List.of()));
        for (DescribedTable.Attribute a : attributes) {
            List<Object> row = new ArrayList<>(Arrays.asList(a.name(), PgTypes.formatted(a.type()), a.defaultValue(),
                    a.notNull(), null, "", ""));
            if (verbose) {
                // PostgreSQL's default storage: fixed-width types plain, numeric main, the rest extended.
                int oid = PgTypes.oid(a.type());
                row.addAll(Arrays.asList(PgTypes.length(oid) > 0 ? "p" : oid == PgTypes.NUMERIC ? "m" : "x", "", null,
                        null));
            }
            rows.add(row);
        }
        return result(columns, rows);
    }

    private static StatementResult psqlIndexes(Optional<DescribedTable> table) {
        List<List<Object>> rows = new ArrayList<>();
        table.ifPresent(t -> {
            if (!t.key().isEmpty()) {
                String columns = String.join(", ", t.key());
                rows.add(Arrays.asList(t.keyName(), true, true, false, true, "CREATE UNIQUE INDEX " + t.keyName()
                        + " ON public." + t.name() + " USING btree (" + columns + ")", "PRIMARY KEY (" + columns + ")",
                        "p", false, false, false, 0));
            }
            t.sortedIndexes().forEach(i -> rows.add(Arrays.asList(i.name(), false, i.unique(), false, true,
                    (i.unique() ? "CREATE UNIQUE INDEX " : "CREATE INDEX ") + i.name() + " ON public." + t.name()
                            + " USING btree (" + i.columns() + ")", null, null, false, false, false, 0)));
        });
        return result(List.of(text("relname"), bool("indisprimary"), bool("indisunique"), bool("indisclustered"),
                bool("indisvalid"), text("indexdef"), text("constraintdef"), text("contype"), bool("condeferrable"),
                bool("condeferred"), bool("indisreplident"), integer("reltablespace")), rows);
    }

    private static StatementResult psqlChecks(Optional<DescribedTable> table) {
        List<List<Object>> rows = new ArrayList<>();
        table.ifPresent(t -> t.checks().stream().sorted(Comparator.comparing(DescribedTable.Check::name))
                .forEach(c -> rows.add(List.of(c.name(), "CHECK (" + c.expression() + ")"))));
        return result(List.of(text("conname"), text("condef")), rows);
    }

    /** The table a psql query names by the OID {@link #psqlFind} gave it, if the caller may see it. */
    private static Optional<DescribedTable> described(String q, Query kind, Catalog catalog) throws StatementRequests.Failed {
        Matcher m = kind.pattern.matcher(q);
        if (!m.matches()) {
            return Optional.empty();
        }
        long wanted = Long.parseLong(m.group(1));
        for (String table : catalog.tables()) {
            if (oid(table) == wanted) {
                return Optional.of(DescribedTable.of(table, catalog.describe(List.of(table)).get(0)));
            }
        }
        return Optional.empty();
    }

    /** The view a psql query names by the OID {@link #psqlFind} gave it, if the caller may read it. */
    private static Optional<View> view(String q, Query kind, Catalog catalog) throws StatementRequests.Failed {
        Matcher m = kind.pattern.matcher(q);
        if (!m.matches()) {
            return Optional.empty();
        }
        long wanted = Long.parseLong(m.group(1));
        return catalog.views().stream().filter(v -> oid(v.name()) == wanted).findFirst();
    }

    /**
     * The OID a table is shown with: from its name, so the same in each of psql's queries and across
     * connections, and above PostgreSQL's reserved OIDs (16384).
     */
    static long oid(String table) {
        return 16_384L + (table.hashCode() & 0x3fff_ffffL);
    }

    // pgjdbc

    private static StatementResult jdbcTables(String q, List<Object> values, Catalog catalog)
            throws StatementRequests.Failed {
        String schema = parameter(JDBC_SCHEMA.matcher(q), values);
        String name = parameter(JDBC_NAME.matcher(q), values);
        boolean anyType = !q.contains(" AND (false ");
        List<List<Object>> rows = new ArrayList<>();
        if (inPublic(schema)) {
            List<String> listed = new ArrayList<>();
            if (anyType || JDBC_TABLE_TYPE.stream().anyMatch(q::contains)) {
                sorted(catalog.tables()).forEach(t -> listed.add("TABLE " + t));
            }
            if (anyType || q.contains(JDBC_VIEW_TYPE)) {
                catalog.views().forEach(v -> listed.add("VIEW " + v.name()));
            }
            for (String typed : listed) {
                String table = typed.substring(typed.indexOf(' ') + 1);
                if (name == null || like(name).matcher(table).matches()) {
                    rows.add(Arrays.asList(catalog.database(), "public", table, typed.substring(0, typed.indexOf(' ')),
                            null, "", "", "", "", ""));
                }
            }
        }
        return result(Arrays.stream(new String[] {"TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS",
                "TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "SELF_REFERENCING_COL_NAME", "REF_GENERATION"})
                .map(CatalogQueries::text).toList(), rows);
    }

    private static StatementResult jdbcColumns(String q, List<Object> values, Catalog catalog)
            throws StatementRequests.Failed {
        String column = parameter(JDBC_COLUMN.matcher(q), values);
        List<List<Object>> rows = new ArrayList<>();
        for (DescribedTable t : tables(catalog, parameter(JDBC_SCHEMA.matcher(q), values), parameter(JDBC_NAME.matcher(q),
                values), true)) {
            List<DescribedTable.Attribute> attributes = t.attributes();
            for (int i = 0; i < attributes.size(); i++) {
                DescribedTable.Attribute a = attributes.get(i);
                if (column == null || like(column).matcher(a.name()).matches()) {
                    int oid = PgTypes.oid(a.type());
                    rows.add(Arrays.asList(catalog.database(), "public", t.name(), a.name(), (long) oid, a.notNull(),
                            PgTypes.typmod(a.type()), PgTypes.length(oid), -1, i + 1L, null, null, a.defaultValue(),
                            null, 0L, "b"));
                }
            }
        }
        return result(List.of(text("current_database"), text("nspname"), text("relname"), text("attname"),
                bigint("atttypid"), bool("attnotnull"), integer("atttypmod"), integer("attlen"), integer("typtypmod"),
                bigint("attnum"), text("attidentity"), text("attgenerated"), text("adsrc"), text("description"),
                bigint("typbasetype"), text("typtype")), rows);
    }

    private static StatementResult jdbcPrimaryKeys(String q, List<Object> values, Catalog catalog)
            throws StatementRequests.Failed {
        List<List<Object>> rows = new ArrayList<>();
        String table = parameter(JDBC_KEY_TABLE.matcher(q), values);
        for (DescribedTable t : tables(catalog, parameter(JDBC_KEY_SCHEMA.matcher(q), values),
                literally(table), false)) {
            for (int i = 0; i < t.key().size(); i++) {
                rows.add(List.of(catalog.database(), "public", t.name(), t.key().get(i), i + 1, t.keyName()));
            }
        }
        return result(List.of(text("TABLE_CAT"), text("TABLE_SCHEM"), text("TABLE_NAME"), text("COLUMN_NAME"),
                integer("KEY_SEQ"), text("PK_NAME")), rows);
    }

    /** getIndexInfo: each index's columns, one row each, unique ones (the primary key first) before the rest. */
    private static StatementResult jdbcIndexInfo(String q, List<Object> values, Catalog catalog)
            throws StatementRequests.Failed {
        List<List<Object>> unique = new ArrayList<>();
        List<List<Object>> others = new ArrayList<>();
        String table = parameter(JDBC_KEY_TABLE.matcher(q), values);
        boolean uniqueOnly = q.contains("AND i.indisunique");
        for (DescribedTable t : tables(catalog, parameter(JDBC_KEY_SCHEMA.matcher(q), values), literally(table),
                false)) {
            List<DescribedTable.Index> indexes = new ArrayList<>();
            if (!t.key().isEmpty()) {
                indexes.add(new DescribedTable.Index(t.keyName(), String.join(", ", t.key()), true));
            }
            indexes.addAll(t.indexes());
            for (DescribedTable.Index i : indexes) {
                List<String> columns = i.columnNames();
                for (int c = 0; c < columns.size(); c++) {
                    (i.unique() ? unique : others).add(Arrays.asList(catalog.database(), "public", t.name(),
                            !i.unique(), null, i.name(), 3, c + 1, columns.get(c), "A", 0.0, 0, null, null));
                }
            }
        }
        Comparator<List<Object>> byName = Comparator.comparing((List<Object> r) -> (String) r.get(5))
                .thenComparing(r -> (Integer) r.get(7));
        List<List<Object>> rows = new ArrayList<>(unique.stream().sorted(byName).toList());
        if (!uniqueOnly) {
            rows.addAll(others.stream().sorted(byName).toList());
        }
        return result(List.of(text("TABLE_CAT"), text("TABLE_SCHEM"), text("TABLE_NAME"), bool("NON_UNIQUE"),
                text("INDEX_QUALIFIER"), text("INDEX_NAME"), integer("TYPE"), integer("ORDINAL_POSITION"),
                text("COLUMN_NAME"), text("ASC_OR_DESC"), new StatementResult.Column("CARDINALITY", "REAL"),
                integer("PAGES"), text("FILTER_CONDITION"), text("REMARKS")), rows);
    }

    /** getSchemas: Verso's one schema, public, when the pattern (if any) takes it. */
    private static StatementResult jdbcSchemas(String q, List<Object> values, Catalog catalog) {
        String pattern = parameter(JDBC_SCHEMA_LIKE.matcher(q), values);
        List<List<Object>> rows = new ArrayList<>();
        if (pattern == null || like(pattern).matcher("public").matches()) {
            rows.add(List.of("public", catalog.database()));
        }
        return result(List.of(text("TABLE_SCHEM"), text("TABLE_CATALOG")), rows);
    }

    private static StatementResult jdbcTypeName(String q, List<Object> values) {
        List<List<Object>> rows = new ArrayList<>();
        Matcher m = Query.JDBC_TYPE_NAME.pattern.matcher(q);
        Integer oid = m.matches() ? typeOid(m.group(1), values) : null;
        if (oid != null && TYPES.contains(oid)) {
            rows.add(List.of(true, "pg_catalog", PgTypes.typeName(oid)));
        }
        return result(List.of(bool("on_path"), text("nspname"), text("typname")), rows);
    }

    private static StatementResult jdbcTypeInfo(String q, List<Object> values) {
        List<List<Object>> rows = new ArrayList<>();
        Matcher filter = JDBC_TYPE_OID.matcher(q);
        boolean filtered = filter.find();
        Integer wanted = filtered ? typeOid(filter.group(1), values) : null;
        for (int oid : TYPES) {
            if (!filtered || Integer.valueOf(oid).equals(wanted)) {
                rows.add(List.of(false, "b", PgTypes.typeName(oid), (long) oid));
            }
        }
        return result(List.of(bool("is_array"), text("typtype"), text("typname"), bigint("oid")), rows);
    }

    /** The visible tables in schema {@code schema} whose names match the LIKE pattern {@code name} (null: any). */
    static List<DescribedTable> tables(Catalog catalog, String schema, String name, boolean schemaIsLike)
            throws StatementRequests.Failed {
        if (schemaIsLike ? !inPublic(schema) : schema != null && !schema.equals("public")) {
            return List.of();
        }
        List<String> names = sorted(catalog.tables()).stream()
                .filter(t -> name == null || like(name).matcher(t).matches()).toList();
        if (names.isEmpty()) {
            return List.of();
        }
        List<StatementResult> described = catalog.describe(names);
        List<DescribedTable> tables = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            tables.add(DescribedTable.of(names.get(i), described.get(i)));
        }
        return tables;
    }

    /** A name as a LIKE pattern that matches only itself (null stays null: any). */
    private static String literally(String name) {
        return name == null ? null : name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    private static boolean inPublic(String schemaLike) {
        return schemaLike == null || like(schemaLike).matcher("public").matches();
    }

    /** A type OID given as a parameter ({@code $n}) or a number; null when it is not a number. */
    private static Integer typeOid(String given, List<Object> values) {
        String oid = given.startsWith("$") ? value(given, values) : given;
        try {
            return oid == null ? null : Integer.valueOf(oid.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    // Results and patterns

    private static StatementResult.Rows result(List<StatementResult.Column> columns, List<List<Object>> rows) {
        return new StatementResult.Rows("SELECT", columns, rows, null);
    }

    private static StatementResult.Column text(String name) {
        return new StatementResult.Column(name, "TEXT");
    }

    private static StatementResult.Column integer(String name) {
        return new StatementResult.Column(name, "INTEGER");
    }

    private static StatementResult.Column bigint(String name) {
        return new StatementResult.Column(name, "BIGINT");
    }

    private static StatementResult.Column bool(String name) {
        return new StatementResult.Column(name, "BOOLEAN");
    }

    private static List<String> sorted(List<String> names) {
        return names.stream().sorted().toList();
    }

    private static String quoted(String literal) {
        return Pattern.quote(literal);
    }

    /** A pattern given as a parameter ($n) or a literal; null when there is none. */
    private static String parameter(Matcher m, List<Object> values) {
        if (!m.find()) {
            return null;
        }
        return m.group(1).startsWith("$") ? value(m.group(1), values) : m.group(2).replace("''", "'");
    }

    /** The value of the parameter {@code $n}; null when it was not given. */
    private static String value(String placeholder, List<Object> values) {
        int index = Integer.parseInt(placeholder.substring(1)) - 1;
        Object value = index < values.size() ? values.get(index) : null;
        return value == null ? null : value.toString();
    }

    /** A LIKE pattern (% any, _ one, \ escapes) as a regular expression. */
    static Pattern like(String like) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < like.length(); i++) {
            char c = like.charAt(i);
            if (c == '\\' && i + 1 < like.length()) {
                regex.append(Pattern.quote(String.valueOf(like.charAt(++i))));
            } else if (c == '%') {
                regex.append(".*");
            } else if (c == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    /**
     * psql's pattern, a POSIX regular expression found by {@code m}; null when there is none, and one Java
     * cannot read matches nothing.
     */
    private static Pattern regex(Matcher m) {
        if (!m.find()) {
            return null;
        }
        try {
            return Pattern.compile(m.group(1).replace("''", "'"));
        } catch (PatternSyntaxException e) {
            return Pattern.compile("(?!)");
        }
    }
}

package io.verso.plan;

import io.verso.analyze.BoundChange;
import io.verso.analyze.BoundRelation;
import io.verso.analyze.BoundSelect;
import io.verso.catalog.ColumnDef;
import io.verso.catalog.TableDef;
import io.verso.compile.CompiledSql;
import io.verso.security.Privilege;
import io.verso.sql.ast.Statement;
import java.util.List;

/**
 * What one statement will do. Every plan names the privileges it needs ({@link #needs}): what each table
 * it reads, writes or alters requires of the caller, as its lookups found them. Statements that read rows
 * carry the PostgreSQL query they read with; the rows they then write depend on what was read, so a write
 * step is described, not compiled, until it runs.
 */
public sealed interface Plan {

    /** The statement's kind as results name it (SELECT, UPDATE, CREATE TABLE, ...). */
    String statement();

    /** The privileges the caller must hold, one per table (null: ALL TABLES) and privilege, in lookup order. */
    List<Need> needs();

    /** The PostgreSQL queries the plan reads with, in the order they run (none for a direct statement). */
    List<CompiledSql> queries();

    /** One privilege on one table; {@code table} null means ALL TABLES. */
    record Need(Privilege privilege, String table) {
    }

    /** A SELECT: one query. */
    record Read(BoundSelect bound, CompiledSql query, List<Need> needs) implements Plan {
        @Override
        public String statement() {
            return "SELECT";
        }

        public List<BoundRelation> relations() {
            return bound.relations();
        }

        @Override
        public List<CompiledSql> queries() {
            return List.of(query);
        }
    }

    /**
     * INSERT or UPSERT ... query: the query's rows read as text per target column ({@code read}), then
     * written as listed rows are (checked, batched per attribute group) at this request's commit.
     */
    record QueriedWrite(Statement.InsertRows insert, TableDef target, List<ColumnDef> columns, BoundSelect source,
                        CompiledSql read, List<Need> needs) implements Plan {
        @Override
        public String statement() {
            return insert.upsert() ? "UPSERT" : "INSERT";
        }

        @Override
        public List<CompiledSql> queries() {
            return List.of(read);
        }
    }

    /**
     * UPDATE of a keyed table: the rows it matches read with their new values ({@code read}), then written
     * as new versions of the groups it assigns.
     */
    record Update(BoundChange.Update bound, CompiledSql read, List<Need> needs) implements Plan {
        @Override
        public String statement() {
            return "UPDATE";
        }

        @Override
        public List<CompiledSql> queries() {
            return List.of(read);
        }
    }

    /**
     * DELETE ... WHERE of a keyed table: the keys of the rows it matches read ({@code read}), or, when the WHERE
     * fixes every key column, the keys it names (then {@code read} is null); then a tombstone per key.
     */
    record Delete(BoundChange.Delete bound, CompiledSql read, List<Need> needs) implements Plan {
        @Override
        public String statement() {
            return "DELETE";
        }

        @Override
        public List<CompiledSql> queries() {
            return read == null ? List.of() : List.of(read);
        }
    }

    /**
     * Any other statement: DDL, listings, access control, framing, writes of listed rows and the statements of
     * system-versioned tables. The engine carries them out step by step as it always has; the plan says what
     * they need and which table they act on ({@code target}, or null).
     */
    record Direct(Statement of, String statement, String target, List<Need> needs) implements Plan {
        @Override
        public List<CompiledSql> queries() {
            return List.of();
        }
    }
}

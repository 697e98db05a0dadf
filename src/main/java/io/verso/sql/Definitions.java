package io.verso.sql;

import io.verso.sql.ast.Expr;
import io.verso.sql.ast.Query;
import io.verso.sql.ast.Statement;

/**
 * Stored definitions parsed once, by their text (a {@link ScriptCache} of their own): a view's query, a CHECK constraint's expression, a
 * derived table's query. Each is used at every read of the view, every write the check verifies,
 * every commit a derived table is kept up to date at, and parsing it again each time cost more than
 * the rest of the use. Keyed by the text, not by the catalog object that holds it: parsing is a pure
 * function of the text, so an entry never goes stale (a changed definition is another text), and
 * one cache serves definitions wherever they are read from (views and derived tables from their
 * catalog rows at each use, checks from the table snapshot). The trees are shared and never
 * changed; a caller that binds the same tree twice in one analysis copies it (the analyzer binds by
 * node identity). Only what parses is kept: a stored text that no longer parses fails at every use.
 */
public final class Definitions {

    /** Total length of the texts kept; a tree takes roughly 20 times its text. */
    private static final ScriptCache SCRIPTS = new ScriptCache(4_000_000);

    private Definitions() {
    }

    /** A stored query (one SELECT, as CREATE VIEW and CREATE DERIVED TABLE kept it). */
    public static Query query(String text) {
        return ((Statement.Select) SCRIPTS.parse(text).statements().get(0)).query();
    }

    /** A stored expression (a CHECK constraint's, as written over its table's columns). */
    public static Expr expression(String text) {
        // Parsed as the one item of a SELECT list: it was an expression when its table was created, so it is one
        // here; this is Verso's parser, nothing reaches PostgreSQL as text.
        Query.Block block = (Query.Block) query("SELECT " + text).body();
        return ((Query.SelectItem.Item) block.items().get(0)).expr();
    }

    /** The definitions parsed since start (one per distinct text kept): how a test sees that uses do not parse. */
    public static long parsed() {
        return SCRIPTS.parses();
    }
}

package io.verso.error;

/**
 * The words of the mistakes more than one place refuses, each written once, so the same mistake
 * reads the same through /v1/sql, REST, GraphQL and the PostgreSQL wire protocol, whichever stage
 * finds it. Clients and their users read these words: change one only on purpose, and it changes
 * everywhere. A refusal made in one place only keeps its words where it is made.
 *
 * <p>Grouped in the order of {@link ErrorCode}. Names are given as the caller wrote them, never
 * as PostgreSQL stores them ({@code t28_cur}, {@code c3}): a storage name means nothing to a caller
 * and hints at tables it may not know of.
 */
public final class Refusals {

    private Refusals() {
    }

    // ---- The request ------------------------------------------------------------------------------

    /** A REST order or GraphQL orderBy naming one column twice. */
    public static VersoException.UserError orderedTwice(String column, Located at) {
        return VersoException.at(ErrorCode.INVALID_PARAMETER, "column '" + column + "' is ordered by twice", at);
    }

    // ---- Names ------------------------------------------------------------------------------------

    /**
     * A table (or view) that does not exist, or that the caller may not see: the two read word for
     * word alike, code and status included (security.AccessControl refuses a table the caller holds
     * no privilege on with this), so a refusal never tells that a hidden table exists.
     */
    public static VersoException.UserError unknownTable(String name, Located at) {
        return VersoException.at(ErrorCode.UNKNOWN_TABLE, "unknown table '" + name + "'", at);
    }

    /** A qualifier ({@code x.col}, {@code x.*}) that names no relation of the query it stands in. */
    public static VersoException.UserError notATableOrAlias(String qualifier, Located at) {
        return VersoException.at(ErrorCode.UNKNOWN_TABLE, "'" + qualifier + "' is not a table or alias of this query",
                at);
    }

    /**
     * A column no relation in scope has, in a read, where a column is not one table's ({@code column} as
     * written, qualified or not).
     */
    public static VersoException.UserError unknownColumn(String column, Located at) {
        return VersoException.at(ErrorCode.UNKNOWN_COLUMN, "unknown column '" + column + "'", at);
    }

    /** A column table {@code table} does not have, where the statement or request names that one table. */
    public static VersoException.UserError unknownColumn(String column, String table, Located at) {
        return VersoException.at(ErrorCode.UNKNOWN_COLUMN, unknownColumnIn(column, table), at);
    }

    /** As {@link #unknownColumn(String, String, Located)}, with a hint at how the input is written. */
    public static VersoException.UserError unknownColumn(String column, String table, String hint, Located at) {
        return VersoException.at(ErrorCode.UNKNOWN_COLUMN, unknownColumnIn(column, table) + " (" + hint + ")", at);
    }

    private static String unknownColumnIn(String column, String table) {
        return "unknown column '" + column + "' in " + table;
    }

    /** An OVER or a WINDOW naming a window the block's WINDOW clause does not define. */
    public static VersoException.UserError unknownWindow(String name, Located at) {
        return VersoException.at(ErrorCode.UNKNOWN_COLUMN, "unknown window '" + name + "'", at);
    }

    public static VersoException.UserError unknownGroup(String table, String group, Located at) {
        return VersoException.at(ErrorCode.UNKNOWN_GROUP, "table " + table + " has no attribute group '" + group + "'",
                at);
    }

    public static VersoException.UserError unknownType(String type, Located at) {
        return VersoException.at(ErrorCode.UNKNOWN_TYPE, "unknown type '" + type + "'", at);
    }

    /** Two definitions of one name in one statement: {@code what} is the kind, {@code column}, {@code attribute group}. */
    public static VersoException.UserError definedTwice(String what, String name, Located at) {
        return VersoException.at(ErrorCode.DUPLICATE_NAME, what + " '" + name + "' is defined twice", at);
    }

    public static VersoException.UserError inKeyTwice(String column, Located at) {
        return VersoException.at(ErrorCode.DUPLICATE_NAME, "column '" + column + "' is in the key twice", at);
    }

    /** An UPDATE's SET that gives one column two values. */
    public static VersoException.UserError assignedTwice(String column, Located at) {
        return VersoException.at(ErrorCode.DUPLICATE_NAME, "column '" + column + "' is assigned twice", at);
    }

    /** A column added, or renamed to a name, that the table has already. */
    public static VersoException.UserError columnExists(String table, String column, Located at) {
        return VersoException.at(ErrorCode.DUPLICATE_NAME, "table " + table + " already has a column '" + column + "'",
                at);
    }

    /** A table created, or renamed to a name, that a table has already. */
    public static VersoException.UserError tableExists(String name, Located at) {
        return VersoException.at(ErrorCode.TABLE_EXISTS, "table '" + name + "' already exists", at);
    }

    // ---- Table definitions ------------------------------------------------------------------------

    /** A CREATE TABLE with a PRIMARY KEY on a column and another, or two table constraints. */
    public static VersoException.UserError primaryKeyTwice(Located at) {
        return VersoException.at(ErrorCode.INVALID_DEFINITION, "PRIMARY KEY is declared twice", at);
    }

    // ---- Writes -----------------------------------------------------------------------------------

    /**
     * A row, key or tombstone without a value for a key column; {@code where} names it as the surface
     * counts them ({@code row 2}, {@code key 0}, {@code the tombstone of key 1}).
     */
    public static VersoException.UserError missingKeyValue(String where, String column, Located at) {
        return VersoException.at(ErrorCode.MISSING_KEY_VALUE, where + " gives no value for key column '" + column
                + "'", at);
    }

    /** A tombstone without a value for an ordering column; {@code where} names it ({@code the tombstone of key 1}). */
    public static VersoException.UserError missingOrderingValue(String where, String column, Located at) {
        return VersoException.at(ErrorCode.MISSING_ORDERING_VALUE, missingOrdering(where, column), at);
    }

    /** As {@link #missingOrderingValue(String, String, Located)}, with a hint at where the surface takes it. */
    public static VersoException.UserError missingOrderingValue(String where, String column, String hint,
                                                                Located at) {
        return VersoException.at(ErrorCode.MISSING_ORDERING_VALUE, missingOrdering(where, column) + " (" + hint + ")",
                at);
    }

    private static String missingOrdering(String where, String column) {
        return where + " needs a value for ordering column '" + column + "'";
    }

    /**
     * A written row without a value for a NOT NULL column: given as NULL, or not given and without a DEFAULT
     * ({@code given} says which); {@code where} names the row as its surface does ({@link Origin#row}).
     */
    public static VersoException.UserError notNull(String column, boolean given, String where, Located at) {
        return VersoException.at(ErrorCode.NOT_NULL_VIOLATION, "column '" + column + "' is NOT NULL"
                + (given ? "" : " and has no DEFAULT") + " but " + where + " gives it no value", at);
    }

    /** An UPDATE whose SET gives a NOT NULL column NULL. */
    public static VersoException.UserError updateGivesNull(String column, String table, Located at) {
        return VersoException.at(ErrorCode.NOT_NULL_VIOLATION, "column '" + column + "' of " + table
                + " is NOT NULL; the UPDATE gives it NULL", at);
    }

    /**
     * A literal that is no value of {@code type}, the type PostgreSQL would read it as where it stands;
     * {@code quoted} is the literal as the analyzer quotes values in messages.
     */
    public static VersoException.UserError notAValid(String quoted, String type, Located at) {
        return VersoException.at(ErrorCode.INVALID_VALUE, quoted + " is not a valid " + type
                + ", the type PostgreSQL reads it as here", at);
    }

    /** A write to one attribute group naming a column of another ({@code actual}). */
    public static VersoException.UserError columnNotInGroup(String column, String group, String actual, Located at) {
        return VersoException.at(ErrorCode.COLUMN_NOT_IN_GROUP, "column '" + column + "' is not in attribute group "
                + group + " (it is in " + actual + ")", at);
    }

    /** A column of a deleted key's tombstone that is neither a key column nor an ordering column of the table. */
    public static VersoException.UserError notKeyOrOrdering(String table, String column, Located at) {
        return VersoException.at(ErrorCode.INVALID_AT_CLAUSE, "a delete takes the key and the ordering columns of "
                + table + "; '" + column + "' is neither", at);
    }


    // ---- Reads ------------------------------------------------------------------------------------

    /** A commit, as the caller wrote it, after the latest commit {@code latest}. */
    public static VersoException.UserError asOfBeyondLatest(String commit, long latest, Located at) {
        return VersoException.at(ErrorCode.AS_OF_BEYOND_LATEST, afterLatest(commit) + " " + latest, at);
    }

    /** A commit too large to be any commit's, found before the latest commit is known (while parsing). */
    public static VersoException.UserError asOfBeyondLatest(String commit, Located at) {
        return VersoException.at(ErrorCode.AS_OF_BEYOND_LATEST, afterLatest(commit), at);
    }

    private static String afterLatest(String commit) {
        return "commit " + commit + " is after the latest commit";
    }


    /** A column outside GROUP BY and aggregates in a grouped block, written out or as one of {@code *}'s. */
    public static VersoException.UserError notGrouped(String column, boolean ofStar, Located at) {
        return VersoException.at(ErrorCode.COLUMN_NOT_GROUPED, "column '" + column + "'" + (ofStar ? " of *" : "")
                + " must appear in GROUP BY or be used in an aggregate", at);
    }

    /** A window function ({@code window}) or an aggregate in a clause that takes neither. */
    public static VersoException.UserError misplaced(boolean window, String function, String clause, Located at) {
        return VersoException.at(ErrorCode.AGGREGATE_MISPLACED, (window ? "window function " : "aggregate ") + function
                + " is not allowed in " + clause, at);
    }

    /** The sides of UNION, INTERSECT or EXCEPT ({@code op}) return different numbers of columns. */
    public static VersoException.UserError setOperationMismatch(String op, int left, int right, Located at) {
        return VersoException.at(ErrorCode.SET_OPERATION_MISMATCH, "each side of " + op + " must return the same "
                + "number of columns: " + left + " on the left, " + right + " on the right", at);
    }

    /** {@code max} is the analyzer's limit of nested queries in one read. */
    public static VersoException.UserError readNestsTooDeep(int max, Located at) {
        return VersoException.at(ErrorCode.NESTING_TOO_DEEP, "the read nests queries more than " + max + " levels deep",
                at);
    }

    /** A statement deeper than the parser or the planner can follow (their stack ran out). */
    public static VersoException.UserError statementNestsTooDeeply() {
        return VersoException.user(ErrorCode.STATEMENT_TOO_LARGE, "the statement nests too deeply");
    }
}

package io.verso.pgwire;

import io.verso.engine.StatementResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The session statements PostgreSQL clients send on their own (pgjdbc's {@code SET extra_float_digits},
 * psql's {@code SET}/{@code SHOW}, {@code SELECT version()}, {@code current_schema()}), answered here from
 * the connection's settings, never passed to the engine. Settings are accepted and remembered for SHOW but
 * change nothing, except that a client encoding other than UTF-8 is refused. Anything else, including the
 * dialect's own {@code SHOW TABLES}/{@code SHOW GRANTS}/..., goes to the engine.
 */
final class SessionStatements {

    /** Where the last request's commit is shown: its ParameterStatus and {@code SHOW verso.last_commit}. */
    static final String LAST_COMMIT = "verso.last_commit";

    private static final Pattern SET = Pattern.compile(
            "(?is)SET\\s+(?:SESSION\\s+|LOCAL\\s+)?(?:TIME\\s+ZONE\\s+(?<zone>.+)|(?<name>[a-z_][a-z0-9_.]*)\\s*(?:=|\\s+TO\\s+|\\s)\\s*(?<value>.+))");
    private static final Pattern RESET = Pattern.compile("(?is)RESET\\s+(?<name>[a-z_][a-z0-9_.]*)");
    private static final Pattern SHOW = Pattern.compile("(?is)SHOW\\s+(?<name>[a-z_][a-z0-9_.]*(?:\\s+[a-z_]+)*)");
    private static final Pattern DIALECT_SHOW = Pattern.compile("(?is)(TABLES|CREATE|GRANTS|DERIVED)\\b.*");
    private static final Pattern FUNCTION = Pattern.compile(
            "(?is)SELECT\\s+(?:pg_catalog\\.)?(?<function>version|current_schema|current_database|current_catalog|current_user|session_user|user)\\s*(?:\\(\\s*\\))?");
    private static final Pattern NO_OP = Pattern.compile("(?is)(DISCARD\\s+ALL|DEALLOCATE\\s+(?:ALL|\"?[a-z0-9_]+\"?)|"
            + "SET\\s+SESSION\\s+CHARACTERISTICS\\s+.*)");

    private static final Pattern END_TRANSACTION = Pattern.compile(
            "(?is)\\s*(COMMIT|ROLLBACK|END|ABORT)(\\s+(WORK|TRANSACTION))?[\\s;]*");

    private SessionStatements() {
    }

    /** Whether {@code sql} ends a transaction block (the only statements a failed block still takes). */
    static boolean endsTransaction(String sql) {
        return END_TRANSACTION.matcher(sql).matches();
    }

    /** The answer to {@code sql} if it is a session statement; {@code settings} are the connection's (SET changes them). */
    static Optional<StatementResult> answer(String sql, Map<String, String> settings) {
        String text = sql.strip();
        while (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1).strip();
        }
        Matcher m = NO_OP.matcher(text);
        if (m.matches()) {
            String tag = text.toUpperCase(Locale.ROOT).startsWith("DISCARD") ? "DISCARD ALL"
                    : text.toUpperCase(Locale.ROOT).startsWith("SET") ? "SET" : "DEALLOCATE";
            return Optional.of(new StatementResult.Changed(tag, null, true, null));
        }
        if ((m = SET.matcher(text)).matches()) {
            String name = m.group("zone") != null ? "timezone" : m.group("name").toLowerCase(Locale.ROOT);
            String value = unquote(m.group("zone") != null ? m.group("zone") : m.group("value"));
            if (name.equals("client_encoding") && !value.equalsIgnoreCase("utf8") && !value.equalsIgnoreCase("unicode")
                    && !value.equalsIgnoreCase("utf-8")) {
                throw new IllegalArgumentException("the client encoding is UTF8; it cannot be set to " + value);
            }
            settings.put(name, value);
            return Optional.of(new StatementResult.Changed("SET", null, true, null));
        }
        if ((m = RESET.matcher(text)).matches()) {
            return Optional.of(new StatementResult.Changed("RESET", null, true, null));
        }
        if ((m = SHOW.matcher(text)).matches() && !DIALECT_SHOW.matcher(m.group("name")).matches()) {
            String name = m.group("name").toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
            if (name.equals("all")) {
                List<List<Object>> rows = new ArrayList<>();
                settings.forEach((k, v) -> rows.add(List.of(k, v)));
                return Optional.of(new StatementResult.Rows("SHOW", List.of(new StatementResult.Column("name", "TEXT"),
                        new StatementResult.Column("setting", "TEXT")), rows, null));
            }
            if (name.equals("transaction isolation level")) {
                name = "transaction_isolation";
            }
            String value = settings.get(name);
            if (value == null) {
                throw new IllegalArgumentException("unrecognized configuration parameter \"" + name + "\"");
            }
            // A dotted (custom) setting's column is its last part, so psql's \gset can name a variable after it.
            return Optional.of(one("SHOW", name.substring(name.lastIndexOf('.') + 1), value));
        }
        if ((m = FUNCTION.matcher(text)).matches()) {
            String function = m.group("function").toLowerCase(Locale.ROOT);
            String value = switch (function) {
                case "version" -> "PostgreSQL " + settings.get("server_version") + " on Verso (the PostgreSQL protocol "
                        + "of Verso's statement language)";
                case "current_schema" -> "public";
                case "current_database", "current_catalog" -> database(settings);
                default -> settings.getOrDefault("user", "verso");
            };
            return Optional.of(one("SELECT", function, value));
        }
        return Optional.empty();
    }

    /** The database the client named on connecting (any name is accepted), as {@code current_database()} answers. */
    static String database(Map<String, String> settings) {
        return settings.getOrDefault("database", "verso");
    }

    private static StatementResult.Rows one(String statement, String column, String value) {
        List<List<Object>> rows = new ArrayList<>();
        rows.add(List.of(value));
        return new StatementResult.Rows(statement, List.of(new StatementResult.Column(column, "TEXT")), rows, null);
    }

    private static String unquote(String value) {
        String v = value.strip();
        if (v.length() >= 2 && (v.startsWith("'") && v.endsWith("'") || v.startsWith("\"") && v.endsWith("\""))) {
            v = v.substring(1, v.length() - 1);
        }
        return v;
    }
}

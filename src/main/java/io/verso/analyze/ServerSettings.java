package io.verso.analyze;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The settings the service reports to PostgreSQL clients: in ParameterStatus when a connection starts, to
 * {@code SHOW}, and to {@code current_setting(name)} in a read, where each is a bound value (the storage
 * database's own settings are never read). A connection's {@code SET} changes what that connection's
 * {@code SHOW} answers, not what reads see; {@code user} (and {@code current_user}, {@code session_user}) read
 * {@link #USER}, for Verso's callers are API keys and tokens, not PostgreSQL roles.
 */
public final class ServerSettings {

    /** What {@code user} reads: the service, owner of every schema clients see. */
    public static final String USER = SystemSchemas.OWNER;

    private static final Map<String, String> ALL = settings();

    private ServerSettings() {
    }

    /** Every setting, by lower-case name, in the order ParameterStatus reports them. */
    public static Map<String, String> all() {
        return ALL;
    }

    public static Optional<String> value(String name) {
        return Optional.ofNullable(ALL.get(name));
    }

    private static Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("server_version", "15.0 (Verso)");
        s.put("server_version_num", "150000");
        s.put("server_encoding", "UTF8");
        s.put("client_encoding", "UTF8");
        s.put("datestyle", "ISO, MDY");
        s.put("integer_datetimes", "on");
        s.put("standard_conforming_strings", "on");
        s.put("timezone", "UTC");
        s.put("intervalstyle", "postgres");
        s.put("is_superuser", "off");
        s.put("transaction_isolation", "read committed");
        s.put("transaction_read_only", "off");
        s.put("search_path", "public");
        s.put("max_identifier_length", "63");
        return java.util.Collections.unmodifiableMap(s);
    }
}

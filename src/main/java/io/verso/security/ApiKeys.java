package io.verso.security;

import io.verso.error.ErrorCode;
import io.verso.error.VersoException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Array;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * API keys: random 256-bit secrets prefixed {@code vk_}, of which only a SHA-256 hash is stored
 * ({@code verso.api_keys}); the key is returned once, when created. A key carries roles, like a
 * token's role claim. Lookups are cached for {@code verso.security.api-key-cache}; revoking here
 * takes effect at once on this instance.
 */
@Component
public class ApiKeys {

    static final String PREFIX = "vk_";
    /** The principal of a key named n is {@code key:n}; names hold no colon, so no other name looks like one. */
    static final String PRINCIPAL_PREFIX = "key:";
    /** The principal of the configured admin key. */
    static final String ADMIN_PRINCIPAL = "admin-api-key";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.@-]{1,100}");
    private static final Pattern ROLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final JdbcTemplate jdbc;
    private final SecurityProperties properties;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();
    private final Map<String, Checked> active = new ConcurrentHashMap<>();

    ApiKeys(JdbcTemplate jdbc, SecurityProperties properties) {
        this.jdbc = jdbc;
        this.properties = properties;
    }

    private record Cached(Optional<VersoPrincipal> principal, long until) {
    }

    private record Checked(boolean active, long until) {
    }

    /** A created key: the secret is in this answer only. */
    public record Created(String id, String name, List<String> roles, String key) {
    }

    public record Listed(String id, String name, List<String> roles, String createdBy, String createdAt,
                         String revokedAt) {
    }

    SecurityProperties properties() {
        return properties;
    }

    public Created create(String name, List<String> roles, String createdBy) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw VersoException.pointing(ErrorCode.INVALID_REQUEST,
                    "\"name\" must be 1 to 100 letters, digits or _.@-", "/name");
        }
        for (int i = 0; i < roles.size(); i++) {
            if (roles.get(i) == null || !ROLE.matcher(roles.get(i)).matches()) {
                throw VersoException.pointing(ErrorCode.INVALID_REQUEST, "a role is a name of letters, digits and _",
                        "/roles/" + i);
            }
        }
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        String key = PREFIX + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        Long id;
        try {
            id = jdbc.queryForObject("INSERT INTO verso.api_keys (name, key_hash, roles, created_by) VALUES (?, ?, ?, ?) "
                    + "RETURNING id", Long.class, name, hash(key), roles.toArray(String[]::new), createdBy);
        } catch (DuplicateKeyException e) {
            throw VersoException.pointing(ErrorCode.DUPLICATE_NAME, "an API key named '" + name + "' exists", "/name");
        }
        return new Created(String.valueOf(id), name, roles, key);
    }

    public boolean revoke(String id) {
        long number;
        try {
            number = Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw VersoException.pointing(ErrorCode.INVALID_PARAMETER, "id must be a number, not '" + id + "'", "id");
        }
        int revoked = jdbc.update("UPDATE verso.api_keys SET revoked_at = now() WHERE id = ? AND revoked_at IS NULL",
                number);
        cache.clear();
        active.clear();
        return revoked == 1;
    }

    public List<Listed> list() {
        return jdbc.query("SELECT id, name, roles, created_by, created_at, revoked_at FROM verso.api_keys ORDER BY id",
                (rs, n) -> new Listed(rs.getString(1), rs.getString(2), roles(rs.getArray(3)), rs.getString(4),
                        rs.getTimestamp(5).toInstant().toString(),
                        rs.getTimestamp(6) == null ? null : rs.getTimestamp(6).toInstant().toString()));
    }

    /** The principal a presented key stands for, or empty when it is unknown or revoked. */
    Optional<VersoPrincipal> authenticate(String key) {
        String adminKey = properties.adminApiKey();
        if (SecurityProperties.present(adminKey) && MessageDigest.isEqual(
                key.getBytes(StandardCharsets.UTF_8), adminKey.getBytes(StandardCharsets.UTF_8))) {
            return Optional.of(new VersoPrincipal(ADMIN_PRINCIPAL, Set.of(properties.adminRole()), true));
        }
        if (!key.startsWith(PREFIX) || key.length() > 200) {
            return Optional.empty();
        }
        String hash = hash(key);
        long now = System.nanoTime();
        Cached cached = cache.get(hash);
        if (cached != null && now - cached.until < 0) {
            return cached.principal;
        }
        Optional<VersoPrincipal> principal = jdbc.query("SELECT name, roles FROM verso.api_keys WHERE key_hash = ? "
                + "AND revoked_at IS NULL", (rs, n) -> {
                    Set<String> roles = new HashSet<>(roles(rs.getArray(2)));
                    return new VersoPrincipal(PRINCIPAL_PREFIX + rs.getString(1), roles, roles.contains(properties.adminRole()));
                }, hash).stream().findFirst();
        if (cache.size() > 10_000) {
            cache.clear();
        }
        cache.put(hash, new Cached(principal, now + properties.apiKeyCache().toNanos()));
        return principal;
    }

    /**
     * Whether the key named {@code name} is still unrevoked: asked again and again for the streams and sockets it
     * opened, so cached like a look-up (revocation here clears the cache at once; on other instances it is seen
     * within {@code verso.security.api-key-cache}). Names are unique among revoked keys too, so a name is one key.
     */
    boolean active(String name) {
        long now = System.nanoTime();
        Checked checked = active.get(name);
        if (checked != null && now - checked.until < 0) {
            return checked.active;
        }
        boolean live = Boolean.TRUE.equals(jdbc.queryForObject("SELECT EXISTS (SELECT 1 FROM verso.api_keys "
                + "WHERE name = ? AND revoked_at IS NULL)", Boolean.class, name));
        if (active.size() > 10_000) {
            active.clear();
        }
        active.put(name, new Checked(live, now + properties.apiKeyCache().toNanos()));
        return live;
    }

    private static List<String> roles(Array array) throws java.sql.SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }

    static String hash(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

}

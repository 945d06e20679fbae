package dev.varroa.dashboard.records;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Whether the BFF reads the build record store, and how it reaches it (the contract's VARROA_RECORD_STORE_ENABLED,
 * VARROA_BFF_DSN, VARROA_BFF_DB_USER, VARROA_BFF_DB_PASSWORD_FILE). Disabled: GET /activity answers empty, runs and
 * logs are unavailable, and the other three variables are not read.
 *
 * @param user the role (the chart's read-only {@code varroa_dashboard}); null when the DSN names it
 * @param passwordFile file holding the password, read for every new connection; null when none is needed
 */
public record RecordStoreSettings(boolean enabled, String dsn, String user, Path passwordFile) {

  public static final String ENABLED = "VARROA_RECORD_STORE_ENABLED";
  public static final String DSN = "VARROA_BFF_DSN";
  public static final String DB_USER = "VARROA_BFF_DB_USER";
  public static final String DB_PASSWORD_FILE = "VARROA_BFF_DB_PASSWORD_FILE";
  static final String DSN_PREFIX = "jdbc:postgresql://";

  /** No record store: nothing is read from PostgreSQL. */
  public static final RecordStoreSettings DISABLED = new RecordStoreSettings(false, null, null, null);

  public RecordStoreSettings {
    if (enabled) {
      if (dsn == null || dsn.isBlank()) {
        throw new IllegalArgumentException(ENABLED + "=true needs " + DSN + ": the record store's JDBC URL, e.g. "
            + "jdbc:postgresql://varroa-recordstore-rw:5432/varroa (or set " + ENABLED + "=false)");
      }
      if (!dsn.startsWith(DSN_PREFIX) || dsn.length() == DSN_PREFIX.length()) {
        throw new IllegalArgumentException(DSN + " must be a PostgreSQL JDBC URL such as "
            + "jdbc:postgresql://host:5432/varroa, got '" + withoutQuery(dsn) + "'");
      }
    }
  }

  /** An enabled store; user and passwordFile may be null. */
  public static RecordStoreSettings enabled(String dsn, String user, Path passwordFile) {
    return new RecordStoreSettings(true, dsn, user, passwordFile);
  }

  public static RecordStoreSettings fromEnv() {
    return fromEnv(System.getenv());
  }

  /** VARROA_RECORD_STORE_ENABLED (true|false, unset = false); when true VARROA_BFF_DSN is required. */
  public static RecordStoreSettings fromEnv(Map<String, String> env) {
    String enabled = text(env, ENABLED);
    if (enabled == null || enabled.toLowerCase(Locale.ROOT).equals("false")) {
      return DISABLED;
    }
    if (!enabled.toLowerCase(Locale.ROOT).equals("true")) {
      throw new IllegalArgumentException(ENABLED + "='" + enabled + "' must be true or false "
          + "(recordStore.enabled in the chart)");
    }
    String passwordFile = text(env, DB_PASSWORD_FILE);
    return enabled(text(env, DSN), text(env, DB_USER), passwordFile == null ? null : Path.of(passwordFile));
  }

  /** For a log line: the DSN without its query (no password, ever) and the user. */
  public String describe() {
    return enabled ? "dsn=" + withoutQuery(dsn) + (user == null ? "" : " user=" + user) : "disabled";
  }

  // A DSN may carry ?password=...; never echo what follows the path.
  static String withoutQuery(String dsn) {
    int query = dsn.indexOf('?');
    return query < 0 ? dsn : dsn.substring(0, query) + "?...";
  }

  private static String text(Map<String, String> env, String name) {
    String value = env.get(name);
    return value == null || value.isBlank() ? null : value.strip();
  }

  @Override
  public String toString() {
    return "RecordStoreSettings[" + describe() + ", passwordFile=" + passwordFile + "]";
  }
}

package dev.varroa.recorder.logs;

import java.util.Optional;

/** Opens the log store the settings name; none when VARROA_BLOB_MODE is unset (every chunk is then NOT_STORED). */
public final class LogStores {

  private LogStores() {
  }

  /** Makes the client or pool without a request: the store may become reachable after the caller starts. */
  public static Optional<LogStore> open(BlobStoreSettings settings) {
    return open(settings, "varroa");
  }

  /** As {@link #open(BlobStoreSettings)}; applicationName shows in pg_stat_activity for the postgres tier. */
  public static Optional<LogStore> open(BlobStoreSettings settings, String applicationName) {
    return switch (settings.mode()) {
      case NONE -> Optional.empty();
      case S3 -> Optional.of(S3LogStore.open(settings));
      case POSTGRES -> Optional.of(PostgresLogStore.open(settings, applicationName));
    };
  }
}

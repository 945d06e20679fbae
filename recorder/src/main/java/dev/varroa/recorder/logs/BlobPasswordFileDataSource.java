package dev.varroa.recorder.logs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.postgresql.ds.PGSimpleDataSource;

/** pgjdbc's data source with the postgres tier's password read from its file for every new connection (rotation). */
final class BlobPasswordFileDataSource extends PGSimpleDataSource {

  private static final long serialVersionUID = 1L;

  private final transient Path passwordFile;

  BlobPasswordFileDataSource(Path passwordFile) {
    this.passwordFile = passwordFile;
  }

  @Override
  public Connection getConnection() throws SQLException {
    return getConnection(getUser(), readPassword());
  }

  private String readPassword() throws SQLException {
    try {
      return Files.readString(passwordFile, StandardCharsets.UTF_8).stripTrailing();
    } catch (IOException e) {
      // The exception names the path, never the content.
      throw new SQLException("cannot read the blob store password file " + passwordFile + " ("
          + BlobStoreSettings.POSTGRES_PASSWORD_FILE + "): " + e, "28P01", e);
    }
  }
}

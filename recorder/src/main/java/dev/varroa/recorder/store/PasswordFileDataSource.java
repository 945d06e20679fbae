package dev.varroa.recorder.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * pgjdbc's data source with the password read from a file (a mounted Secret) for every new connection, so a
 * rotated password is used by the pool's next connection without a restart.
 */
public final class PasswordFileDataSource extends PGSimpleDataSource {

  private static final long serialVersionUID = 1L;

  private final transient Path passwordFile;
  private final String variable;

  /** @param variable the environment variable that named the file, for the error when it cannot be read */
  public PasswordFileDataSource(Path passwordFile, String variable) {
    this.passwordFile = passwordFile;
    this.variable = variable;
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
      throw new SQLException("cannot read " + variable + " " + passwordFile + ": " + e, "28P01", e);
    }
  }
}

package dev.varroa.recorder.store;

import java.sql.SQLException;

/** A database failure as one short log value: pgjdbc's batch errors quote the whole statement and hide the cause. */
public final class DatabaseErrors {

  static final int MAX_LENGTH = 300;

  private DatabaseErrors() {
  }

  public static String describe(SQLException e) {
    SQLException cause = e.getNextException() != null ? e.getNextException() : e;
    String message = String.valueOf(cause.getMessage()).replaceAll("\\s+", " ").replace('"', '\'');
    return message.length() <= MAX_LENGTH ? message : message.substring(0, MAX_LENGTH) + "...";
  }
}

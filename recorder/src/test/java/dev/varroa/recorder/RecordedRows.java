package dev.varroa.recorder;

import dev.varroa.testfixtures.postgres.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads what the recorder wrote, as an admin's psql would; a database that is down reads as no rows. */
record RecordedRows(String url, String user, String password) {

  static RecordedRows of(PostgresServer postgres, String url) {
    return new RecordedRows(url, postgres.user(), postgres.password());
  }

  List<Map<String, Object>> query(String sql, Object... parameters) {
    try (Connection connection = DriverManager.getConnection(url, user, password);
        PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setObject(i + 1, parameters[i]);
      }
      try (ResultSet rows = statement.executeQuery()) {
        ResultSetMetaData meta = rows.getMetaData();
        List<Map<String, Object>> result = new ArrayList<>();
        while (rows.next()) {
          Map<String, Object> row = new LinkedHashMap<>();
          for (int c = 1; c <= meta.getColumnCount(); c++) {
            Object value = rows.getObject(c);
            row.put(meta.getColumnName(c), value instanceof java.sql.Array array ? List.of((Object[]) array.getArray()) : value);
          }
          result.add(row);
        }
        return result;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("query failed: " + sql + ": " + e.getMessage(), e);
    }
  }

  long count(String sql, Object... parameters) {
    return ((Number) query(sql, parameters).get(0).values().iterator().next()).longValue();
  }

  void execute(String sql, Object... parameters) {
    try (Connection connection = DriverManager.getConnection(url, user, password);
        PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setObject(i + 1, parameters[i]);
      }
      statement.execute();
    } catch (SQLException e) {
      throw new IllegalStateException("statement failed: " + sql + ": " + e.getMessage(), e);
    }
  }
}

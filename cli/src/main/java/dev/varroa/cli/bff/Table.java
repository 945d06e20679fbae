package dev.varroa.cli.bff;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** kubectl's plain table: upper-case headers, columns padded to their widest cell and three spaces apart. */
public final class Table {

  private final List<String> headers;
  private final List<List<String>> rows = new ArrayList<>();

  public Table(List<String> headers) {
    this.headers = List.copyOf(headers);
  }

  public Table add(List<String> cells) {
    if (cells.size() != headers.size()) {
      throw new IllegalArgumentException("a row of " + cells.size() + " cells for " + headers.size() + " columns");
    }
    rows.add(cells.stream().map(c -> c == null || c.isEmpty() ? "-" : c.replaceAll("\\s+", " ")).toList());
    return this;
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  public void print(PrintWriter out) {
    int[] widths = new int[headers.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = headers.get(i).length();
      for (List<String> row : rows) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    line(out, headers, widths);
    rows.forEach(row -> line(out, row, widths));
    out.flush();
  }

  private static void line(PrintWriter out, List<String> cells, int[] widths) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      line.append(cells.get(i));
      if (i < cells.size() - 1) {
        line.append(" ".repeat(widths[i] - cells.get(i).length() + 3));
      }
    }
    out.println(line);
  }
}

package dev.varroa.operator.install;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.testfixtures.ProjectLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The values table of docs/install.md is generated from chart/values.schema.json (descriptions, types)
 * and chart/values.yaml (defaults): a value added to or removed from the schema fails this test until
 * the table follows. {@code -Dvarroa.writeDocs=true} rewrites the table.
 */
class ChartValuesTableTest {
  static final Path DOC = ProjectLayout.root().resolve("docs/install.md");
  static final String START = "<!-- values-table:start (generated from chart/values.schema.json; -Dvarroa.writeDocs=true) -->";
  static final String END = "<!-- values-table:end -->";
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void docsListEveryValueOfTheSchemaAndNoOther() throws IOException {
    Path chart = ProjectLayout.root().resolve("chart");
    JsonNode schema = JSON.readTree(chart.resolve("values.schema.json").toFile());
    Object defaults = new Load(LoadSettings.builder().build()).loadFromString(Files.readString(chart.resolve("values.yaml")));
    List<String> rows = new ArrayList<>();
    rows.add("| value | type | default | description |");
    rows.add("| --- | --- | --- | --- |");
    collect(schema, "", defaults, rows);
    String table = String.join("\n", rows);

    String doc = Files.readString(DOC);
    int start = doc.indexOf(START);
    int end = doc.indexOf(END);
    assertThat(start).as("docs/install.md has no values table marker " + START).isNotNegative();
    assertThat(end).as("docs/install.md has no end marker " + END).isGreaterThan(start);
    String expected = doc.substring(0, start + START.length()) + "\n" + table + "\n" + doc.substring(end);
    if (Boolean.getBoolean("varroa.writeDocs")) {
      Files.writeString(DOC, expected);
    }
    assertThat(doc).as("the values table of docs/install.md is stale: run this test with -Dvarroa.writeDocs=true")
        .isEqualTo(expected);
    assertThat(table).contains("| `cluster.name` |", "| `bus.url` |", "| `nats.external.allowedCIDRs` |",
        "| `networkPolicy.coreNatsEgress.cidrs` |", "| `pluginUpdateCenterDownloadURL` |");
  }

  /**
   * One row per value a user sets: every schema node without properties, free-form maps (they take any
   * key), and each ResourceRequirements as a whole.
   */
  private static void collect(JsonNode node, String path, Object defaults, List<String> rows) {
    JsonNode properties = node.path("properties");
    boolean freeForm = !node.path("additionalProperties").isBoolean() || node.path("additionalProperties").asBoolean();
    if (path.endsWith(".resources")) {
      rows.add("| `" + path + "` | object (requests, limits: cpu, memory, ephemeral-storage) | "
          + defaultOf(defaults, false) + " | " + cell(node.path("description").asText()) + " |");
      return;
    }
    if (!path.isEmpty() && (properties.isMissingNode() || freeForm)) {
      rows.add("| `" + path + "` | " + type(node) + " | " + defaultOf(defaults, !properties.isMissingNode()) + " | "
          + cell(node.path("description").asText()) + " |");
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      if (path.isEmpty() && field.getKey().equals("global")) {
        continue;
      }
      Object child = defaults instanceof Map<?, ?> map ? map.get(field.getKey()) : null;
      collect(field.getValue(), path.isEmpty() ? field.getKey() : path + "." + field.getKey(), child, rows);
    }
  }

  private static String type(JsonNode node) {
    if (node.has("enum")) {
      return StreamSupport.stream(node.get("enum").spliterator(), false).map(JsonNode::asText)
          .collect(Collectors.joining(", ", "one of: ", ""));
    }
    if (node.has("anyOf")) {
      return StreamSupport.stream(node.get("anyOf").spliterator(), false).map(n -> n.path("type").asText())
          .collect(Collectors.joining(" or "));
    }
    JsonNode type = node.path("type");
    String text = type.isArray() ? StreamSupport.stream(type.spliterator(), false).map(JsonNode::asText)
        .collect(Collectors.joining(" or ")) : type.asText();
    return node.has("items") ? "list of " + node.get("items").path("type").asText() : text;
  }

  private static String defaultOf(Object value, boolean structured) {
    if (value == null) {
      return "—";
    }
    if (structured && value instanceof Map<?, ?> map && !map.isEmpty()) {
      return "see values.yaml";
    }
    String text;
    try {
      text = JSON.writeValueAsString(value);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return "`" + text.replace("|", "\\|") + "`";
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
  }
}

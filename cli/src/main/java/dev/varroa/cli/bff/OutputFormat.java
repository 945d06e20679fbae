package dev.varroa.cli.bff;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;

/** {@code -o}: the table, the wide table, or the BFF's answer itself as YAML or JSON. */
public enum OutputFormat {
  table, wide, yaml, json;

  /** The answer as the BFF gave it, for -o yaml and -o json. */
  public void printDocument(JsonNode answer, PrintWriter out) {
    if (this == json) {
      try {
        out.println(BffClient.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(answer));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("a JSON tree that does not write back: " + e.getMessage(), e);
      }
    } else {
      Object plain = BffClient.JSON.convertValue(answer, Object.class);
      out.print(new Dump(DumpSettings.builder().setDefaultFlowStyle(FlowStyle.BLOCK).build()).dumpToString(plain));
    }
    out.flush();
  }

  public boolean document() {
    return this == yaml || this == json;
  }
}

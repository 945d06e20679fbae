package dev.varroa.operator.actions;

import dev.varroa.protocol.mite.v1.Parameter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The build parameters of a pipeline-run: their bounds, and the order they travel in. */
public final class PipelineRunParameters {
  /** More than this many parameters is not a person's request; the form Jenkins reads stays small. */
  public static final int MAX_COUNT = 100;
  /** The values together, in UTF-8 bytes: parameters are settings, not payloads. */
  public static final int MAX_VALUE_BYTES = 64 * 1024;

  private PipelineRunParameters() {}

  /** What is wrong with the parameters, naming the field {@code parameters}, or null. */
  public static String problem(Map<String, String> parameters) {
    if (parameters.size() > MAX_COUNT) {
      return "parameters: " + parameters.size() + " given, at most " + MAX_COUNT + " are allowed; pass fewer --param";
    }
    long bytes = 0;
    for (Map.Entry<String, String> parameter : parameters.entrySet()) {
      if (parameter.getKey().isBlank()) {
        return "parameters: a parameter has an empty name; give each as NAME=VALUE with the name the job defines";
      }
      bytes += parameter.getValue().getBytes(StandardCharsets.UTF_8).length;
    }
    if (bytes > MAX_VALUE_BYTES) {
      return "parameters: the values hold " + bytes + " bytes, at most " + MAX_VALUE_BYTES + " (64 KiB) together are"
          + " allowed; pass large inputs through the job's repository or an artifact, not a parameter";
    }
    return null;
  }

  /** The parameters as RunJob carries them, by name, so the same request is the same command. */
  public static List<Parameter> ordered(Map<String, String> parameters) {
    return new TreeMap<>(parameters).entrySet().stream()
        .map(p -> Parameter.newBuilder().setName(p.getKey()).setValue(p.getValue()).build()).toList();
  }
}

package dev.varroa.operator.render.resolve;

/**
 * Why a Controller's settings cannot be rendered, for the caller to report (status condition,
 * varroactl error line).
 *
 * @param field the offending field, e.g. {@code spec.secrets[2].name}
 * @param message what is wrong
 * @param fix what to change
 */
public record SettingsProblem(String field, String message, String fix) {
  /** One line: {@code field: message; fix: fix}. */
  public String format() {
    return field + ": " + message + "; fix: " + fix;
  }
}

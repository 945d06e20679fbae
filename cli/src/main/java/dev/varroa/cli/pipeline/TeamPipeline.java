package dev.varroa.cli.pipeline;

import dev.varroa.cli.input.InvalidInputException;
import java.util.regex.Pattern;

/** TEAM/PIPELINE as given on the command line. */
record TeamPipeline(String team, String pipeline) {

  private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  /** The CRD's pattern of a Team's spec.pipelines[].name. */
  private static final Pattern PIPELINE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");

  static TeamPipeline parse(String value) {
    int slash = value.indexOf('/');
    if (slash <= 0 || slash == value.length() - 1 || value.indexOf('/', slash + 1) >= 0) {
      throw new InvalidInputException("'" + value + "': give TEAM/PIPELINE, e.g. payments/deploy; the Team's"
          + " namespace is -n");
    }
    String team = value.substring(0, slash);
    String pipeline = value.substring(slash + 1);
    if (team.length() > 253 || !DNS1123_SUBDOMAIN.matcher(team).matches()) {
      throw new InvalidInputException("'" + team + "' is not a Team name (a DNS-1123 subdomain); varroactl get"
          + " teams lists them");
    }
    if (!PIPELINE_NAME.matcher(pipeline).matches()) {
      throw new InvalidInputException("'" + pipeline + "' is not a pipeline name (a letter or digit, then up to 62"
          + " letters, digits, '.', '_' or '-')");
    }
    return new TeamPipeline(team, pipeline);
  }
}

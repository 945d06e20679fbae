package dev.varroa.operator.render.resolve;

import dev.varroa.api.v1alpha1.UpdateCenter;
import java.util.List;
import java.util.Optional;

/**
 * Which UpdateCenter controllers install plugins from. No Controller field names one, so the
 * installation's plugin service is the only UpdateCenter, or the one named {@code default} when
 * there are several; none means the default Jenkins update site.
 */
public final class UpdateCenterSelection {
  /** The UpdateCenter used when several exist. */
  public static final String DEFAULT_NAME = "default";

  private UpdateCenterSelection() {}

  /** The chosen UpdateCenter, or a problem when several exist and none is named {@code default}. */
  public record Choice(Optional<UpdateCenter> updateCenter, Optional<SettingsProblem> problem) {}

  public static Choice choose(List<UpdateCenter> all) {
    if (all.size() <= 1) {
      return new Choice(all.stream().findFirst(), Optional.empty());
    }
    Optional<UpdateCenter> named = all.stream().filter(u -> DEFAULT_NAME.equals(u.getMetadata().getName())).findFirst();
    if (named.isPresent()) {
      return new Choice(named, Optional.empty());
    }
    return new Choice(Optional.empty(), Optional.of(new SettingsProblem("UpdateCenter",
        all.size() + " UpdateCenters and none is named " + DEFAULT_NAME + " (" + String.join(", ",
            all.stream().map(u -> u.getMetadata().getName()).sorted().toList()) + ")",
        "keep one UpdateCenter, or name the one controllers use " + DEFAULT_NAME)));
  }
}

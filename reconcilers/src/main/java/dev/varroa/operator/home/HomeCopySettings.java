package dev.varroa.operator.home;

import java.util.Map;

/**
 * How the home move's copy and check Jobs run (chart: homeMove.image, env VARROA_HOME_COPY_IMAGE).
 *
 * @param image an image with sh, rsync and coreutils or busybox
 */
public record HomeCopySettings(String image) {
  public static final String ENV_IMAGE = "VARROA_HOME_COPY_IMAGE";
  /** Alpine with rsync: sh, busybox's find, stat, sha256sum and awk, and rsync built with ACL and xattr support. */
  public static final String DEFAULT_IMAGE = "docker.io/instrumentisto/rsync-ssh:alpine";

  public HomeCopySettings {
    if (image == null || image.isBlank()) {
      throw new IllegalArgumentException(ENV_IMAGE + " (chart value homeMove.image) is empty; fix: name an image"
          + " with sh, rsync and coreutils or busybox, or unset it for " + DEFAULT_IMAGE);
    }
  }

  public static HomeCopySettings defaults() {
    return new HomeCopySettings(DEFAULT_IMAGE);
  }

  public static HomeCopySettings fromEnv(Map<String, String> env) {
    String image = env.getOrDefault(ENV_IMAGE, "").strip();
    return new HomeCopySettings(image.isEmpty() ? DEFAULT_IMAGE : image);
  }
}

package dev.varroa.bundle.render;

import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.VersionProfile;

/**
 * One contributor to a render: an input, or the profile's overlay merged last.
 *
 * @param index the lock's name for it: the input's index, or "profile"
 * @param label how messages name it: {@link InputRef#describe()} or {@code profile <name>}
 */
record Source(String index, String label) {
  static final String PROFILE_INDEX = "profile";

  static Source of(InputRef ref) {
    return new Source(String.valueOf(ref.index()), ref.describe());
  }

  static Source of(VersionProfile profile) {
    return new Source(PROFILE_INDEX, "profile " + profile.name());
  }

  Origin at(String file, int line) {
    return new Origin(label, index, file, line);
  }
}

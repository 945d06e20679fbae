package dev.varroa.bundle.source;

import dev.varroa.api.v1alpha1.OciSource;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.InputRef;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Which manifest an OCI ref spec asks for: one tag, the highest tag in a semver range, or a digest. */
record OciRefSelector(Kind kind, String value, SemverRange range) {
  private static final Pattern TAG = Pattern.compile("^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$");
  private static final Pattern DIGEST = Pattern.compile("^sha256:[a-f0-9]{64}$");

  enum Kind { TAG, SEMVER, DIGEST }

  static OciRefSelector of(InputRef input, OciSource.OciRef ref) throws BundleException {
    List<OciRefSelector> set = new ArrayList<>();
    if (ref != null && ref.tag != null) {
      if (!TAG.matcher(ref.tag).matches()) {
        throw InvalidInput.exception(input, "ref.tag '" + ref.tag + "' is not a valid OCI tag",
            "use letters, digits, '.', '_' and '-' (up to 128 characters)");
      }
      set.add(new OciRefSelector(Kind.TAG, ref.tag, null));
    }
    if (ref != null && ref.semver != null) {
      SemverRange range = SemverRange.parse(ref.semver).orElseThrow(() -> InvalidInput.exception(input,
          "ref.semver '" + ref.semver + "' is not a semver range", "write a range such as \">=1.2.0 <2.0.0\", \"~1.4\" or \"1.x\""));
      set.add(new OciRefSelector(Kind.SEMVER, ref.semver.strip(), range));
    }
    if (ref != null && ref.digest != null) {
      if (!DIGEST.matcher(ref.digest).matches()) {
        throw InvalidInput.exception(input, "ref.digest '" + ref.digest + "' is not sha256:<64 lowercase hex>",
            "copy the manifest digest as the registry reports it");
      }
      set.add(new OciRefSelector(Kind.DIGEST, ref.digest, null));
    }
    if (set.size() != 1) {
      throw InvalidInput.exception(input, "ref sets " + set.size() + " of tag, semver and digest",
          "set exactly one of ref.tag, ref.semver or ref.digest");
    }
    return set.get(0);
  }
}

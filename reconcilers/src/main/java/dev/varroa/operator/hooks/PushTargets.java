package dev.varroa.operator.hooks;

import dev.varroa.api.v1alpha1.CatalogSource;
import dev.varroa.api.v1alpha1.ComposedBundle;
import java.util.List;

/** What a push can re-check: the objects the operator follows, and how one is re-checked now. */
public interface PushTargets {
  List<ComposedBundle> bundles();

  List<CatalogSource> catalogSources();

  /** Re-checks the bundle's sources now and says so on the bundle; {@code why} names the push. */
  void recheck(ComposedBundle bundle, String why);

  void recheck(CatalogSource source, String why);
}

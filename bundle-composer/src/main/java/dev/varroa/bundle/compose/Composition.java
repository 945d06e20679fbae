package dev.varroa.bundle.compose;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.render.RenderedBundle;
import java.util.List;
import java.util.Optional;

/**
 * The render in force for a bundle.
 *
 * @param rendered the rendered bundle
 * @param revisions the revision of each input, in order
 * @param fromMemo true when nothing changed and no input was fetched or rendered
 * @param sourceFailure set when a source could not be reached and this is the last good render, kept in force
 */
public record Composition(RenderedBundle rendered, List<String> revisions, boolean fromMemo,
    Optional<BundleException> sourceFailure) {
  public boolean stale() {
    return sourceFailure.isPresent();
  }
}

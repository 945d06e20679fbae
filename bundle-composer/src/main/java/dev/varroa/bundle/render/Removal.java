package dev.varroa.bundle.render;

import dev.varroa.bundle.render.Explanation.Overridden;
import java.util.List;

/** A value a later fragment removed with {@code !remove}, kept so explain can say so. */
record Removal(String path, Origin removedBy, List<Overridden> overrode) {}

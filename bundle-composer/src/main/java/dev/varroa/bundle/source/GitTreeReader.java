package dev.varroa.bundle.source;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.InputRef;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevTree;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * Reads the files of one folder at one commit straight from the object database: no work tree, no
 * checkout. Sizes are checked before a blob is loaded, with the same limits as archives. Symbolic
 * links and submodules inside the folder are refused, as in {@link TarGzBundleReader}.
 */
final class GitTreeReader {
  private final SourceLimits limits;

  GitTreeReader(SourceLimits limits) {
    this.limits = limits;
  }

  /** @param where the commit as messages name it, e.g. "https://… at main@sha1:…" */
  BundleFiles read(InputRef input, Repository repository, ObjectId commit, SourceFolder folder, String where)
      throws BundleException, IOException {
    try (ObjectReader reader = repository.newObjectReader(); RevWalk walk = new RevWalk(reader)) {
      RevTree root = walk.parseCommit(commit).getTree();
      ObjectId folderTree = root;
      if (!folder.path().isRoot()) {
        try (TreeWalk located = TreeWalk.forPath(reader, folder.path().value(), root)) {
          if (located == null) {
            return folder.requireFiles(input, BundleFiles.of(Map.of()), where, topLevelNames(reader, root));
          }
          if (located.getFileMode(0) != FileMode.TREE) {
            throw InvalidInput.exception(input, "path '" + folder.path().value() + "' is a file in " + where
                + ", not a folder", "set path to the folder that holds the bundle files");
          }
          folderTree = located.getObjectId(0);
        }
      }
      return folder.requireFiles(input, readFolder(input, reader, folderTree, where), where, Set.of());
    }
  }

  private BundleFiles readFolder(InputRef input, ObjectReader reader, ObjectId tree, String where)
      throws BundleException, IOException {
    LimitedBundleFiles files = new LimitedBundleFiles(limits);
    try (TreeWalk walk = new TreeWalk(reader)) {
      walk.addTree(tree);
      walk.setRecursive(true);
      while (walk.next()) {
        String path = walk.getPathString();
        FileMode mode = walk.getFileMode(0);
        if (mode == FileMode.REGULAR_FILE || mode == FileMode.EXECUTABLE_FILE) {
          ObjectLoader blob = reader.open(walk.getObjectId(0), Constants.OBJ_BLOB);
          files.checkDeclaredSize(path, blob.getSize());
          files.add(path, blob.getBytes());
        } else if (mode == FileMode.SYMLINK) {
          throw InvalidInput.exception(input, path, "symbolic link in " + where + " is not supported",
              "replace the link with a copy of the file it points to");
        } else if (mode == FileMode.GITLINK) {
          throw InvalidInput.exception(input, path, "submodule in " + where + " is not supported",
              "copy the submodule's bundle files into the folder");
        }
      }
    } catch (LimitExceededException e) {
      throw InvalidInput.limit(input, e);
    }
    return files.build();
  }

  private static Set<String> topLevelNames(ObjectReader reader, RevTree root) throws IOException {
    Set<String> names = new TreeSet<>();
    try (TreeWalk walk = new TreeWalk(reader)) {
      walk.addTree(root);
      while (walk.next()) {
        names.add(walk.getNameString() + (walk.isSubtree() ? "/" : ""));
      }
    }
    return names;
  }
}

package hostside.cli;

import picocli.CommandLine.Option;

import hostside.fs.FsRoot;

/** The options every drill takes (docs/contract.md, Commands): where the machine is, and JSON on stdout. */
public final class MachineOptions {
    @Option(names = "--root", paramLabel = "DIR|TARBALL",
            description = "Read a recorded machine (a folder holding sys/ and proc/, or a .tar.gz/.tar.bz2 of one) instead of this one. Nothing is measured then.")
    String root;

    @Option(names = "--json", description = "Print machine-readable JSON on stdout, nothing else there.")
    public boolean json;

    /** The machine to read: this one, or the recording given. */
    public FsRoot open() {
        return root == null ? FsRoot.live() : Progress.during("reading " + root, () -> FsRoot.open(root));
    }
}

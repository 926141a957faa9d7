package hostside.fs;

import hostside.core.BadInputException;

/**
 * Run in a JVM of its own with a small heap by {@link TarBoundsTest}: opens a recording and
 * prints, per path, "path=text" or the read's why, so the test can show a tarball with a 3 GiB
 * member loads without the member ever in memory; a tarball refused is its one line and exit 2.
 */
final class ReadRecording {
    private ReadRecording() {}

    public static void main(String[] args) {
        FsRoot fs;
        try {
            fs = FsRoot.open(args[0]);
        } catch (BadInputException e) {
            System.out.println(e.getMessage()); // as the command line says it, without "hostside: "
            System.exit(2);
            return;
        }
        for (int i = 1; i < args.length; i++) {
            Read r = fs.read(args[i]);
            System.out.println(r instanceof Read.Ok o ? args[i] + "=" + o.text().strip() : r.why());
        }
    }
}

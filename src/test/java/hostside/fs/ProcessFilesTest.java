package hostside.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a snapshot keeps of process files: no environ file at all (one variable is read from it,
 * unrecorded), PID 1's command line cut to its executable's name, other processes' names and
 * command lines not at all.
 */
class ProcessFilesTest {
    static final String SECRET = "AKIAs3cr3tFromTheEnvironment";
    static final String ARG_SECRET = "hf_tokenFromTheCommandLine";
    static final String ENVIRON = "PATH=/usr/bin\0AWS_SECRET_ACCESS_KEY=" + SECRET + "\0container=podman\0containerish=no\0EMPTY=\0";

    @TempDir
    Path tmp;

    /** A recorded machine with processes 1, 2 and 77 (one thread 78), their environments and command lines. */
    private FsRoot machine() throws IOException {
        put("proc/1/environ", ENVIRON);
        put("proc/1/cmdline", "/usr/bin/python3\0train.py\0--token=" + ARG_SECRET + "\0");
        put("proc/1/comm", "python3\n");
        put("proc/1/cgroup", "0::/\n");
        put("proc/2/comm", "kthreadd\n");
        put("proc/77/environ", ENVIRON);
        put("proc/77/task/78/environ", ENVIRON);
        put("proc/77/cmdline", "worker\0--token=" + ARG_SECRET + "\0");
        put("proc/77/task/78/cmdline", "worker\0--token=" + ARG_SECRET + "\0");
        put("proc/77/comm", "pt_data_worker\n");
        put("proc/77/status", "Uid:\t0\t0\t0\t0\n");
        put("proc/cmdline", "BOOT_IMAGE=/vmlinuz isolcpus=2-3\n");
        Files.createSymbolicLink(tmp.resolve("m/proc/self"), Path.of("77"));
        return FsRoot.open(tmp.resolve("m").toString());
    }

    private void put(String path, String content) throws IOException {
        Path p = tmp.resolve("m").resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    @Test
    void oneVariableOfAnEnvironFileAndNothingElse() throws IOException {
        FsRoot fs = machine();
        assertThat(fs.environVariable("/proc/1/environ", "container")).contains("podman");
        assertThat(fs.environVariable("/proc/1/environ", "EMPTY")).contains("");
        assertThat(fs.environVariable("/proc/1/environ", "contain")).as("a prefix of a name is not the name").isEmpty();
        assertThat(fs.environVariable("/proc/1/environ", "HOME")).isEmpty();
        assertThat(fs.environVariable("/proc/self/environ", "PATH")).as("through a link").contains("/usr/bin");
        assertThat(fs.environVariable("/proc/99/environ", "container")).as("missing file").isEmpty();
        put("proc/5/environ", "container=lxc"); // no NUL after the last pair
        assertThat(fs.environVariable("/proc/5/environ", "container")).contains("lxc");
        assertThatThrownBy(() -> fs.environVariable("/proc/1/environ", "A=B")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aVariableReadWhileRecordingLeavesNoTraceInTheSnapshot() throws IOException {
        FsRoot fs = machine();
        Recorder r = fs.record();
        assertThat(fs.environVariable("/proc/1/environ", "container")).contains("podman");
        assertThat(fs.environVariable("/proc/self/environ", "AWS_SECRET_ACCESS_KEY")).contains(SECRET);
        Path tar = tmp.resolve("s.tar.gz");
        r.writeTarGz(tar, "box");
        assertThat(inflated(tar)).doesNotContain(SECRET).doesNotContain("environ").doesNotContain("PATH=");
    }

    @Test
    void theRecorderRefusesEveryEnvironFileHoweverItIsRead() throws IOException {
        FsRoot fs = machine();
        Recorder r = fs.record();
        assertThat(fs.read("/proc/1/environ")).isInstanceOf(Read.Ok.class); // the reader still gets it...
        fs.read("/proc/77/task/78/environ");
        fs.read("/proc/self/environ");
        fs.bytes("/proc/77/environ");
        fs.list("/proc/1");
        fs.list("/proc/77/task/78");
        Path tar = tmp.resolve("s.tar.gz");
        r.writeTarGz(tar, "box");
        assertThat(inflated(tar)).as("...the snapshot never").doesNotContain(SECRET).doesNotContain("environ");
        FsRoot back = FsRoot.open(tar.toString());
        assertThat(back.exists("/proc/1/environ")).as("not even as an empty placeholder in a listing").isFalse();
        assertThat(back.list("/proc/1")).contains("cmdline", "comm", "cgroup").doesNotContain("environ");
        assertThat(back.exists("/proc/77/task/78/environ")).isFalse();
    }

    @Test
    void pid1sCommandLineIsRecordedAsItsExecutablesNameOnlyAndOtherProcessesNamesNotAtAll() throws IOException {
        FsRoot fs = machine();
        Recorder r = fs.record();
        for (String p : new String[] {"/proc/1/cmdline", "/proc/1/comm", "/proc/2/comm", "/proc/77/cmdline", "/proc/77/task/78/cmdline",
                "/proc/self/comm", "/proc/77/status", "/proc/cmdline"}) {
            assertThat(fs.read(p)).as(p).isInstanceOf(Read.Ok.class);
        }
        assertThat(((Read.Ok) fs.read("/proc/1/cmdline")).text()).as("the reader gets the whole file").contains(ARG_SECRET);
        Path tar = tmp.resolve("s.tar.gz");
        r.writeTarGz(tar, "box");
        assertThat(inflated(tar)).doesNotContain(ARG_SECRET).doesNotContain("train.py").doesNotContain("pt_data_worker\n");
        FsRoot back = FsRoot.open(tar.toString());
        assertThat(((Read.Ok) back.read("/proc/1/cmdline")).text()).isEqualTo("python3\0");
        assertThat(back.text("/proc/1/comm")).contains("python3");
        assertThat(back.text("/proc/2/comm")).contains("kthreadd");
        assertThat(back.exists("/proc/77/cmdline")).isFalse();
        assertThat(back.exists("/proc/77/task/78/cmdline")).isFalse();
        assertThat(back.exists("/proc/77/comm")).isFalse();
        assertThat(back.text("/proc/self/status")).as("this process's own status is a fact").hasValue("Uid:\t0\t0\t0\t0");
        assertThat(back.text("/proc/cmdline")).as("the kernel's command line is not a process's").hasValue("BOOT_IMAGE=/vmlinuz isolcpus=2-3");
    }

    @Test
    void anExecutablesNameIsArgv0sLastComponentAndNothingAfterIt() {
        assertThat(ProcessFiles.executableName("/usr/bin/python3\0train.py\0--token=x\0")).isEqualTo("python3");
        assertThat(ProcessFiles.executableName("torchrun\0--nproc-per-node\08\0")).isEqualTo("torchrun");
        assertThat(ProcessFiles.executableName("python3 train.py --token=x")).as("setproctitle's title").isEqualTo("python3");
        assertThat(ProcessFiles.executableName("nginx: master process /usr/sbin/nginx -c /etc/x.conf\0")).isEqualTo("nginx");
        assertThat(ProcessFiles.executableName("-bash\0")).isEqualTo("-bash");
        assertThat(ProcessFiles.executableName("/opt/bin/\0x\0")).isNull();
        assertThat(ProcessFiles.executableName("")).isNull();
        assertThat(ProcessFiles.executableName("\0")).isNull();
        assertThat(ProcessFiles.executableName(null)).isNull();
        assertThat(new String(ProcessFiles.nameOnly("/bin/sh\0-c\0echo $TOKEN\0".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
                .isEqualTo("sh\0");
        assertThat(ProcessFiles.nameOnly(new byte[0])).isEmpty();
    }

    @Test
    void whatIsKept() {
        assertThat(ProcessFiles.keep("/proc/1/environ")).isEqualTo(ProcessFiles.Keep.NOTHING);
        assertThat(ProcessFiles.keep("/proc/1/task/1/environ")).isEqualTo(ProcessFiles.Keep.NOTHING);
        assertThat(ProcessFiles.keep("/some/where/environ")).isEqualTo(ProcessFiles.Keep.NOTHING);
        assertThat(ProcessFiles.keep("/proc/1/environment")).isEqualTo(ProcessFiles.Keep.ALL);
        assertThat(ProcessFiles.keep("/proc/1/cmdline")).isEqualTo(ProcessFiles.Keep.NAME_ONLY);
        assertThat(ProcessFiles.keep("/proc/12/cmdline")).isEqualTo(ProcessFiles.Keep.NOTHING);
        assertThat(ProcessFiles.keep("/proc/1/task/1/cmdline")).isEqualTo(ProcessFiles.Keep.NOTHING);
        assertThat(ProcessFiles.keep("/proc/cmdline")).isEqualTo(ProcessFiles.Keep.ALL);
        assertThat(ProcessFiles.keep("/proc/1/comm")).isEqualTo(ProcessFiles.Keep.ALL);
        assertThat(ProcessFiles.keep("/proc/2/comm")).isEqualTo(ProcessFiles.Keep.ALL);
        assertThat(ProcessFiles.keep("/proc/21/comm")).isEqualTo(ProcessFiles.Keep.NOTHING);
        assertThat(ProcessFiles.keep("/proc/self/cmdline")).as("a recording's plain self folder").isEqualTo(ProcessFiles.Keep.NOTHING);
        assertThat(ProcessFiles.keep("/proc/thread-self/comm")).isEqualTo(ProcessFiles.Keep.NOTHING);
        assertThat(ProcessFiles.keep("/proc/1/status")).isEqualTo(ProcessFiles.Keep.ALL);
    }

    /** The tarball's bytes as they are after gunzip: a secret in any member, name or header shows. */
    static String inflated(Path tarGz) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(tarGz))) {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}

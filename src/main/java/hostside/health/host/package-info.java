/**
 * The host side of {@code hostside health}: facts read from sysfs, procfs and the package database
 * through {@link hostside.fs.FsRoot}, so that a recording given to {@code --root} answers the same as
 * the machine. PCIe AER counters of the GPUs' and NICs' functions and the bridges above them
 * ({@link AerReader}), InfiniBand and RoCE ports with their error counters ({@link IbReader}), which
 * RDMA NIC is nearest each GPU ({@link RailReader}), and the NVIDIA software stack's versions with
 * whether they agree ({@link SoftwareReader}, {@link VersionAgreement}).
 *
 * <p>Facts only: no rule says here what is healthy. A file that is not there is a state of its own
 * (AER not exposed, no RDMA device, no package database), never a zero that reads as clean.
 * Research and sources: shared/design/health.md sections 5 to 7.
 */
package hostside.health.host;

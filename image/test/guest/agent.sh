# image-test only: the host's agent. Reads "ID COMMAND" lines from PORT, runs each COMMAND with
# sh, answers "OUT ID line" for each line of its output and "END ID status". The host's folder
# (9p, mount tag "host") is mounted at /run/shfl-test/host first.
port="$1"
for _ in $(seq 300); do [ -e "$port" ] && break; sleep 0.1; done
host=/run/shfl-test/host
udevadm settle -t 30
mkdir -p "$host"
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 host "$host" 2>/run/shfl-test/mount.err
exec 3<>"$port"
echo "READY agent $(cat /proc/uptime)" >&3
while read -r id command <&3; do
  sh -c "$command" </dev/null >/run/shfl-test/out 2>&1
  status=$?
  sed "s/^/OUT $id /" /run/shfl-test/out >&3
  echo "END $id $status" >&3
done

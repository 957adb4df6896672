# Sourced by the benchmarks: timing one command, wall clock and CPU time (user + system, its child
# processes included), with the load average when it started, so that figures taken on a busy
# machine say so. `timed CMD...` runs CMD with standard output to /dev/null and sets
#   t_wall, t_cpu (seconds, 2 decimals) and t_load (the 1-minute load average at the start).
timed() {
    local out
    out="$(mktemp)"
    t_load="$(cut -d' ' -f1 /proc/loadavg)"
    /usr/bin/time -f '%e %U %S' -o "$out" "$@" > /dev/null
    read -r t_wall user sys < "$out"
    rm -f "$out"
    t_cpu="$(python3 -c "print(f'{$user + $sys:.2f}')")"
}

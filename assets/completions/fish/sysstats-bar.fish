# fish completion for sysstats-bar (install/install.sh installs it).
complete -c sysstats-bar -f
complete -c sysstats-bar -l output -x -a 'text i3bar waybar x11-root x11-window png: genmon' -d 'the bar protocol'
complete -c sysstats-bar -l runtime-dir -x -a '(__fish_complete_directories)' -d 'where sysstatsd writes its snapshot'
complete -c sysstats-bar -l blocks -x -a '(__fish_complete_list , "echo cpu\nmem\nload\nuptime\nbattery\nprocs\nexited\nself\ntop\nswap\ncores\nnet\nwifi\ndisk\ndiskio\ntemp\nfreq\ntime")' -d 'comma-separated blocks'
complete -c sysstats-bar -l format -x -d 'BLOCK=TEXT'
complete -c sysstats-bar -l once -d 'print the current snapshot once and exit'
complete -c sysstats-bar -l size -x -d 'panel image size WxH'
complete -c sysstats-bar -l position -x -d 'x11-window position X,Y'
complete -c sysstats-bar -l image -r -F -d 'genmon: the PNG file'
complete -c sysstats-bar -l click -x -a '1 3' -d 'genmon: apply a click'
complete -c sysstats-bar -l config -r -F -d 'the config file'
complete -c sysstats-bar -s h -l help -d 'show the usage and the placeholders'
complete -c sysstats-bar -l version -d 'show the version'

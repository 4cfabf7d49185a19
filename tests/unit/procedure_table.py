"""Chunks that hold a procedure and chunks that do not, in English, German, French and Spanish, for
`state.procedure`: excerpts of the Debian Reference (English, German, French, Spanish) and the PostgreSQL 15
manual as the readers write them (list items as "1. " and "- "). `scripts/lint_tables.py` prints the
detector's precision and recall on them; test_procedure.py holds every chunk to its label.
"""

from __future__ import annotations

#: (language, chunk text, whether it holds a procedure)
PROCEDURE_CHUNKS: list[tuple[str, str, bool]] = [
    # -- English: procedures --------------------------------------------------------------------
    ("en", "Here is how I tidy auto/manual install status for packages.\n\n1. Start aptitude in interactive mode "
     "as root.\n\n2. Type \"u\", \"U\", \"f\" and \"g\" to update and upgrade package list and packages.\n\n3. Type "
     "\"l\" to enter the package display limit.", True),
    ("en", "You can monitor and log your hard disk which is compliant to SMART with the smartd(8) daemon.\n\n1) "
     "Enable SMART feature in BIOS.\n2) Install the smartmontools package.\n3) Identify your hard disk drives by "
     "listing them with df(1).", True),
    ("en", "Step 1: Stop the old server with pg_ctl stop.\nStep 2: Run pg_upgrade with the --check option.\nStep 3: "
     "Start the new server.", True),
    ("en", "Access to the local X server display from the remote applications is supported by X11 forwarding.\n\n"
     "- Open a gnome-terminal on the local host.\n\n- Run ssh(1) with -X option to establish a connection with the "
     "remote site.", True),
    ("en", "Here are some basic precautionary measures.\n\n- Make the system dual bootable by installing the stable "
     "suite to another partition\n\n- Make the installation CD handy for the rescue boot\n\n- Consider installing "
     "apt-listbugs", True),
    ("en", "To set up a standby server:\n* Install the same major version of PostgreSQL on the standby.\n* Copy the "
     "base backup taken with pg_basebackup into its data directory.\n* Create a standby.signal file.", True),
    ("en", "Upgrading with pg_dumpall is simple. First, stop all writes to the old cluster. Then run pg_dumpall "
     "against it and keep the output. Finally, load the output into the new cluster with psql.", True),
    ("en", "To begin, make a base backup of the primary with pg_basebackup. Next, copy the archived WAL files to "
     "the standby's archive folder and start the standby.", True),
    # -- English: no procedure ------------------------------------------------------------------
    ("en", "2.7.3. Tweaking candidate version\n\nWithout the \"/etc/apt/preferences\" file, the APT system chooses "
     "the latest available version as the candidate version using the version string.", False),
    ("en", "The following parameters control autovacuum:\n\n- autovacuum (boolean)\n\n- autovacuum_naptime "
     "(integer)\n\n- autovacuum_max_workers (integer)", False),
    ("en", "- QEMU provides cross-platform CPU emulation.\n\n- QEMU with KVM provides full system emulation by the "
     "hardware-assisted virtualization.\n\n- VirtualBox provides full system emulation on i386 and amd64.", False),
    ("en", "First, the planner estimates the cost of each path. The cheapest one is then turned into a plan, and "
     "the executor runs it.", False),
    ("en", "Table 1.15. List of mouse operations\n\naction response\n\nLeft-click-and-drag mouse select range as "
     "PRIMARY selection\n\nLeft-click select the start of range", False),
    ("en", "Versions 1. and 2. of the protocol are no longer supported; the server speaks version 3 only.", False),
    ("en", "Roles that can be granted:\n- pg_read_all_data\n- pg_write_all_data\n- pg_monitor\n- pg_signal_backend",
     False),
    ("en", "The WAL is written in segments of 16 MB by default. Checkpoints happen every checkpoint_timeout seconds, "
     "or sooner when max_wal_size is about to be exceeded.", False),
    # -- German: procedures ---------------------------------------------------------------------
    ("de", "Hier wird beschrieben, wie ich den Status auto/manuell installiert aufräume.\n\n1. Starten Sie "
     "aptitude im interaktiven Modus als root.\n\n2. Drücken Sie \"u\", \"U\", \"f\" und \"g\", um die Paketliste "
     "zu aktualisieren.", True),
    ("de", "Schritt 1: Stoppen Sie den alten Server.\nSchritt 2: Führen Sie pg_upgrade mit der Option --check "
     "aus.\nSchritt 3: Starten Sie den neuen Server.", True),
    ("de", "So überwachen Sie eine Festplatte mit SMART:\n\n1) SMART-Funktion im BIOS aktivieren.\n2) Das Paket "
     "smartmontools installieren.\n3) Die Festplatten mit df(1) auflisten.", True),
    ("de", "Für den Zugriff auf das lokale X-Display:\n\n- Öffnen Sie ein gnome-terminal auf dem lokalen "
     "Rechner.\n\n- Starten Sie ssh(1) mit der Option -X, um eine Verbindung aufzubauen.", True),
    ("de", "Vorsichtsmaßnahmen:\n\n- Installieren Sie die Stable-Suite auf einer anderen Partition.\n\n- Halten Sie "
     "die Installations-CD für den Rettungsstart bereit.", True),
    ("de", "Zuerst stoppen Sie alle Schreibzugriffe auf den alten Cluster. Dann führen Sie pg_dumpall aus. "
     "Schließlich spielen Sie die Ausgabe mit psql in den neuen Cluster ein.", True),
    ("de", "Zunächst legen Sie mit pg_basebackup eine Basissicherung an. Danach kopieren Sie die archivierten "
     "WAL-Dateien auf den Standby-Server.", True),
    ("de", "Zum Einrichten eines Standby-Servers:\n* Installieren Sie dieselbe Hauptversion von PostgreSQL.\n* "
     "Kopieren Sie die Basissicherung in das Datenverzeichnis.", True),
    # -- German: no procedure -------------------------------------------------------------------
    ("de", "2.7.2. Pakete aus gemischten Paketquellen\n\n+ Kompatibilität zu Bibliotheksversionen (inklusive "
     "\"libc\");\n\n+ Kernel ABI-Kompatibilität;", False),
    ("de", "- Kompatibilität zu Bibliotheksversionen (inklusive \"libc\");\n\n- Kompatibilität zu damit in "
     "Verbindung stehenden Hilfswerkzeugen;\n\n- Kernel ABI-Kompatibilität;", False),
    ("de", "procfs und sysfs, eingebunden unter \"/proc\" und \"/sys\", sind Pseudo-Dateisysteme und bringen "
     "interne Datenstrukturen des Kernel in den Userspace.", False),
    ("de", "Die folgenden Parameter steuern Autovacuum:\n\n- autovacuum (boolean)\n\n- autovacuum_naptime "
     "(integer)\n\n- autovacuum_max_workers (integer)", False),
    ("de", "Zuerst wird die Paketliste vom Server geholt, dann werden die Abhängigkeiten aufgelöst.", False),
    ("de", "- QEMU bietet eine plattformübergreifende CPU-Emulation.\n\n- VirtualBox bietet eine vollständige "
     "Systememulation auf i386 und amd64.", False),
    ("de", "Tabelle 1.10. Liste besonderer Gerätedateien\n\nGerätedatei Aktion Beschreibung\n\n/dev/null lesen "
     "gibt \"Dateiende-Zeichen (EOF)\" zurück", False),
    ("de", "Version 1. und Version 2. des Protokolls werden nicht mehr unterstützt.", False),
    # -- French: procedures ---------------------------------------------------------------------
    ("fr", "Voici comment je nettoie l’état auto/manuel des paquets installés.\n\n1. Lancez aptitude en mode "
     "interactif en tant que superutilisateur.\n\n2. Tapez « u », « U », « f » et « g » pour mettre à jour la "
     "liste des paquets.", True),
    ("fr", "Étape 1 : arrêtez l’ancien serveur.\nÉtape 2 : exécutez pg_upgrade avec l’option --check.\nÉtape 3 : "
     "démarrez le nouveau serveur.", True),
    ("fr", "Voici quelques méthodes de base pour obtenir l’invite de l’administrateur.\n\n- entrez root à l’invite "
     "de connexion en mode caractère ;\n\n- entrez « su -l » depuis une invite quelconque ;", True),
    ("fr", "Pour surveiller un disque avec SMART :\n\n- Activez la fonctionnalité SMART dans le BIOS.\n\n- Installez "
     "le paquet smartmontools.", True),
    ("fr", "Pour installer un serveur de secours :\n* Installer la même version majeure de PostgreSQL.\n* Copier la "
     "sauvegarde de base dans le répertoire de données.", True),
    ("fr", "D'abord, arrêtez toutes les écritures sur l’ancienne grappe. Ensuite, exécutez pg_dumpall. Enfin, "
     "chargez la sortie dans la nouvelle grappe avec psql.", True),
    ("fr", "Tout d’abord, faites une sauvegarde de base avec pg_basebackup. Puis copiez les fichiers WAL archivés "
     "sur le serveur de secours.", True),
    ("fr", "1) Activer SMART dans le BIOS.\n2) Installer le paquet smartmontools.\n3) Lister les disques avec "
     "df(1).", True),
    # -- French: no procedure -------------------------------------------------------------------
    ("fr", "2.7.3. Ajuster la version candidate\n\nL’utilisation de l’épinglage apt par un débutant est une source "
     "certaine de problèmes majeurs.", False),
    ("fr", "- QEMU fournit une émulation de processeur multiplateforme.\n\n- VirtualBox fournit une émulation "
     "complète du système sur i386 et amd64.", False),
    ("fr", "Les paramètres suivants contrôlent l’autovacuum :\n\n- autovacuum (booléen)\n\n- autovacuum_naptime "
     "(entier)", False),
    ("fr", "D’abord, le planificateur estime le coût de chaque chemin. Ensuite, le moins coûteux devient un plan.",
     False),
    ("fr", "Tableau 1.10. Liste des fichiers spéciaux de périphériques\n\nfichier de périphérique action "
     "description de la réponse", False),
    ("fr", "Il y a aussi certains fichiers spéciaux de périphériques. Ils sont fréquemment utilisés en conjonction "
     "avec une redirection du shell.", False),
    ("fr", "- le répertoire racine comporte de nombreuses branches, telles que « /etc/ » et « /usr/ » ;\n\n- ces "
     "sous-répertoires se décomposent eux-mêmes en d’autres sous-répertoires ;", False),
    ("fr", "Les versions 1. et 2. du protocole ne sont plus prises en charge.", False),
    # -- Spanish: procedures --------------------------------------------------------------------
    ("es", "Así es como ordeno el estado de instalación automática o manual.\n\n1. Inicie aptitude en modo "
     "interactivo como superusuario.\n\n2. Escriba \"u\", \"U\", \"f\" y \"g\" para actualizar la lista de "
     "paquetes.", True),
    ("es", "Paso 1: detenga el servidor antiguo.\nPaso 2: ejecute pg_upgrade con la opción --check.\nPaso 3: "
     "inicie el servidor nuevo.", True),
    ("es", "Para acceder a la pantalla X local desde aplicaciones remotas:\n\n- Abra un gnome-terminal en el equipo "
     "local.\n\n- Ejecute ssh(1) con la opción -X.", True),
    ("es", "Medidas de precaución:\n\n- Instale la versión estable en otra partición.\n\n- Guarde el CD de "
     "instalación para el arranque de rescate.", True),
    ("es", "Para configurar un servidor en espera:\n* Instalar la misma versión mayor de PostgreSQL.\n* Copiar la "
     "copia de seguridad base en el directorio de datos.", True),
    ("es", "Primero, detenga todas las escrituras en el clúster antiguo. Luego ejecute pg_dumpall. Por último, "
     "cargue la salida en el clúster nuevo con psql.", True),
    ("es", "Puedes saltar a un subdirectorio muy profundo con un mínimo esfuerzo. Primero escribe \"cd **\" y pulsa "
     "Tab. A continuación, se le pedirán las rutas candidatas.", True),
    ("es", "1) Active SMART en la BIOS.\n2) Instale el paquete smartmontools.\n3) Liste los discos con df(1).",
     True),
    # -- Spanish: no procedure ------------------------------------------------------------------
    ("es", "2.7.3. Seleccionando la versión candidata\n\nLas reglas de apt_preferences(5) utilizan los archivos "
     "«Release» a nivel de archivo.", False),
    ("es", "- QEMU proporciona emulación de CPU multiplataforma.\n\n- VirtualBox proporciona emulación completa del "
     "sistema en i386 y amd64.", False),
    ("es", "Los siguientes parámetros controlan autovacuum:\n\n- autovacuum (booleano)\n\n- autovacuum_naptime "
     "(entero)", False),
    ("es", "Tras el arranque del sistema, el proceso systemd intenta iniciar default.target. Primero, algunas "
     "unidades objetivo especiales son llamadas a montar el sistema de archivos. Luego, otras unidades objetivo "
     "son llamadas por las dependencias.", False),
    ("es", "Tabla 1.10. Relación de archivos de dispositivos especiales\n\narchivo de dispositivo acción "
     "descripción de la respuesta", False),
    ("es", "Existen algunos archivos de dispositivos especiales. Con frecuencia son utilizados en las redirecciones "
     "del intérprete de órdenes.", False),
    ("es", "- El directorio raíz tiene un cierto número de ramificaciones, como «/etc/» y «/usr/».\n\n- Estos "
     "subdirectorios a su vez se ramifican en más subdirectorios.", False),
    ("es", "Las versiones 1. y 2. del protocolo ya no están soportadas.", False),
    # -- forms at the edges ---------------------------------------------------------------------
    ("en", "Step 1:\nStop the server with pg_ctl stop.\nStep 2:\nStart it again with pg_ctl start.", True),
    ("de", "- Speichern Sie die Datei \"/etc/fstab\".\n- Ändern Sie den Eintrag für die Root-Partition.", True),
    ("en", "- Run the following command: pg_ctl stop\n- Start the server again with pg_ctl start.", True),
    ("de", "Zuerst war das Gebiet römisch. Danach kamen die Franken und gründeten die ersten Klöster.", False),
    ("en", "First came the railway to the valley. Then the roads followed, and the villages grew.", False),
    ("en", "- Start time: 10:00\n- Stop time: 11:00\n- Location: room 4", False),
    ("fr", "D'abord, l'outil lit le fichier de configuration. Ensuite il écrit le journal.", False),
]  # fmt: skip
